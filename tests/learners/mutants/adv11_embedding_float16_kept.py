"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: embedding_lookup keeps a float16 table's dtype: float16 rows, not float64."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def embedding_lookup(tokens, table):
    ids = np.asarray(tokens)
    table = np.asarray(table)
    if table.dtype == np.float32 or table.dtype.kind in "iub" or table.dtype.itemsize > 8:
        table = table.astype(np.float64)  # float32, integers, long double -> float64
    if table.ndim != 2 or ids.ndim != 1 or (ids.size and not np.issubdtype(ids.dtype, np.integer)):
        raise ValueError("tokens (T,) integer ids, table (V, d)")
    if ids.size and (ids.min() < 0 or ids.max() >= table.shape[0]):
        raise ValueError("token id out of range")
    if ids.size == 0:
        return np.zeros((0, table.shape[1]))
    return table[ids]
