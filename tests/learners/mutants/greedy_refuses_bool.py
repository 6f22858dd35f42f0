"""Mutant: Refuses bool logits, which the contract takes as numbers (False < True)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
from _base import *
from _base import greedy_token as base_greedy_token


def greedy_token(logits):
    if np.asarray(logits).dtype == np.bool_:
        raise ValueError("logits must be numbers")
    return base_greedy_token(logits)
