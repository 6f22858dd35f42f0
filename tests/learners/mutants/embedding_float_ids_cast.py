"""Mutant: Casts the ids to int64 instead of refusing a float array: 1.7 silently reads row 1.
From an adversarial tester's held-out set (v_embedding_float_ids)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def embedding_lookup(tokens, table):
    table = np.asarray(table, dtype=np.float64)
    ids = np.asarray(tokens).astype(np.int64)  # 2.7 becomes 2, silently
    if table.ndim != 2 or ids.ndim != 1:
        raise ValueError("shapes")
    if ids.size and (ids.min() < 0 or ids.max() >= table.shape[0]):
        raise ValueError("id out of range")
    return table[ids]
