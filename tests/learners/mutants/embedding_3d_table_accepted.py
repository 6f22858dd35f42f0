"""Mutant: embedding_lookup checks table.ndim < 2 only: a 3-D table is accepted"""

# ruff: noqa  (a learner's file, kept as a learner writes it)
import math
import operator

import numpy as np
from _base import *


def embedding_lookup(tokens, table):
    ids = np.asarray(tokens)
    table = np.asarray(table, dtype=np.float64)
    if table.ndim < 2 or ids.ndim != 1 or (ids.size and not np.issubdtype(ids.dtype, np.integer)):
        raise ValueError("tokens (T,) integer ids, table (V, d)")
    if ids.size and (ids.min() < 0 or ids.max() >= table.shape[0]):
        raise ValueError("token id out of range")
    if ids.size == 0:
        return np.zeros((0,) + table.shape[1:])
    return table[ids]
