"""Mutant: Reads ids as 1-based: row id - 1."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def embedding_lookup(tokens, table):
    ids = np.asarray(tokens)
    table = np.asarray(table, dtype=np.float64)
    if ids.size and (ids.min() < 0 or ids.max() >= table.shape[0]):
        raise ValueError("token id out of range")
    return table[ids - 1]
