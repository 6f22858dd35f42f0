"""Mutant: Off by one: masks the diagonal too, so row 0 sees nothing."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def causal_masked_attention(scores):
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim < 2 or s.shape[-1] != s.shape[-2] or s.shape[-1] == 0:
        raise ValueError("scores must be (..., T, T)")
    t = s.shape[-1]

    hidden = np.triu(np.ones((t, t), dtype=bool), k=0)
    return softmax_rows(np.where(hidden, -np.inf, s))
