"""Mutant: embedding_lookup answers no ids with an empty (0, d) array in the table's own
dtype, where the rows are float64 whatever the table's dtype (a buggy-learner round,
2026-12-08)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *


def embedding_lookup(tokens, table):
    out = _base.embedding_lookup(tokens, table)
    if out.shape[0] == 0:
        return np.zeros((0, np.shape(table)[1]), dtype=np.asarray(table).dtype)
    return out
