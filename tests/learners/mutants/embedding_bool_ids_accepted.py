"""Mutant: Accepts boolean id arrays (dtype kind in "iub"), indexing the table by a mask instead of
refusing ids that are not integers. From an adversarial tester's second held-out set (embedding_bool_ids_accepted)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_lookup = embedding_lookup


def embedding_lookup(tokens, table):
    ids = np.asarray(tokens)
    if ids.dtype == np.bool_ and ids.ndim == 1:
        return np.asarray(table, dtype=np.float64)[ids]  # a mask: the rows where True
    return _correct_lookup(tokens, table)
