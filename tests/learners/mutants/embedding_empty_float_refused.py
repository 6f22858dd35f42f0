"""Mutant: Refuses an empty float vector (np.array([])), which the contract reads as T = 0 whatever
its dtype. From an adversarial tester's second held-out set (embedding_empty_float_refused)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_lookup = embedding_lookup


def embedding_lookup(tokens, table):
    if not np.issubdtype(np.asarray(tokens).dtype, np.integer):
        raise ValueError("tokens must be integer ids")
    return _correct_lookup(tokens, table)
