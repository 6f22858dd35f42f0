"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: embedding_lookup caches its float64 table by (shape, dtype): a second table of the same shape gets the first one's rows."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


_TABLES = {}


def embedding_lookup(tokens, table):
    raw = np.asarray(table)
    key = (raw.shape, raw.dtype.str)  # <- a decoding loop's table, converted once: by shape
    if key not in _TABLES:
        _TABLES[key] = np.asarray(raw, dtype=np.float64)
    return _base.embedding_lookup(tokens, _TABLES[key])
