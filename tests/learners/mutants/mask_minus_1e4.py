"""Mutant: Adds -1e4 to the future scores instead of setting them to -inf."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def causal_masked_attention(scores):
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim < 2 or s.shape[-1] != s.shape[-2] or s.shape[-1] == 0:
        raise ValueError("scores must be (..., T, T)")
    t = s.shape[-1]

    future = np.triu(np.ones((t, t)), k=1)
    return softmax_rows(s + future * -1e4)
