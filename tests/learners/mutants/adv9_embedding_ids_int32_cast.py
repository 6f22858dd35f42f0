"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: embedding_lookup casts ids to int32 before the range check: id 2**32 + 1 becomes 1."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def embedding_lookup(tokens, table):
    ids = np.asarray(tokens)
    table = np.asarray(table, dtype=np.float64)
    if table.ndim != 2 or ids.ndim != 1 or (ids.size and not np.issubdtype(ids.dtype, np.integer)):
        raise ValueError("tokens (T,) integer ids, table (V, d)")
    ids = ids.astype(np.int32)  # ids fit in int32
    if ids.size and (ids.min() < 0 or ids.max() >= table.shape[0]):
        raise ValueError("token id out of range")
    if ids.size == 0:
        return np.zeros((0, table.shape[1]))
    return table[ids]
