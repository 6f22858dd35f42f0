"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: embedding_lookup accepts ids only when np.can_cast(dtype, np.int64): uint64 ids are refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def embedding_lookup(tokens, table):
    if np.asarray(tokens).dtype == np.uint64:
        raise ValueError("tokens must be integer ids that fit int64")
    return _base.embedding_lookup(tokens, table)
