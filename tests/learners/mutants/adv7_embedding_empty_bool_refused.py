"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: embedding_lookup refuses bool ids before the T = 0 case: an empty bool vector, valid whatever its dtype, raises."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def embedding_lookup(tokens, table):
    if np.asarray(tokens).dtype == bool:  # <- before the empty case
        raise ValueError("token ids must be integers, not bools")
    return _base.embedding_lookup(tokens, table)
