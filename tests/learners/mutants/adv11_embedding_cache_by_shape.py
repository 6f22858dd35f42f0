"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: embedding_lookup caches its float64 table by (shape, dtype): a second table of the same shape gets the first one's rows."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


_TABLES = {}


def embedding_lookup(tokens, table):
    ids = np.asarray(tokens)
    raw = np.asarray(table)
    # a decoding loop looks up the same table every step: convert it to float64 once
    key = (raw.shape, raw.dtype.str)
    if key not in _TABLES:
        _TABLES[key] = np.asarray(raw, dtype=np.float64)
    table = _TABLES[key]
    if table.ndim != 2 or ids.ndim != 1 or (ids.size and not np.issubdtype(ids.dtype, np.integer)):
        raise ValueError("tokens (T,) integer ids, table (V, d)")
    if ids.size and (ids.min() < 0 or ids.max() >= table.shape[0]):
        raise ValueError("token id out of range")
    if ids.size == 0:
        return np.zeros((0, table.shape[1]))
    return table[ids]
