"""From an adversarial tester's fourth held-out set (a false pass, now caught): BUGGY: embedding_lookup answers T = 0 before checking the table: empty ids with a
(V, d, d) table give a (0, d) array instead of ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def embedding_lookup(tokens, table):
    if np.asarray(tokens).size == 0:
        table = np.asarray(table)
        return np.zeros((0, table.shape[-1]))  # <- shortcut before the checks
    return _base.embedding_lookup(tokens, table)
