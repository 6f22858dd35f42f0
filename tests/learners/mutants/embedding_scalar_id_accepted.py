"""Mutant: Refuses only ids with more than one axis, so a 0-d id (np.int64(3)) returns one (d,) row
instead of a ValueError. From an adversarial tester's second held-out set (embedding_scalar_id_accepted)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_lookup = embedding_lookup


def embedding_lookup(tokens, table):
    ids = np.asarray(tokens)
    if ids.ndim == 0 and np.issubdtype(ids.dtype, np.integer):
        rows = np.asarray(table, dtype=np.float64)
        if not 0 <= int(ids) < rows.shape[0]:
            raise ValueError("token id out of range")
        return rows[int(ids)]  # (d,)
    return _correct_lookup(tokens, table)
