"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: embedding_lookup returns (0, d) for any empty ids before checking they are a vector: ids of shape (2, 0) are accepted where the contract raises ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def embedding_lookup(tokens, table):
    if np.asarray(tokens).size == 0:  # <- before the vector check
        return np.zeros((0, np.asarray(table).shape[1]))
    return _base.embedding_lookup(tokens, table)
