"""Mutant: Takes T from the first axis: wrong for stacked heads (H, T, T)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def causal_masked_attention(scores):
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim < 2 or s.shape[-1] != s.shape[-2] or s.shape[-1] == 0:
        raise ValueError("scores must be (..., T, T)")
    t = s.shape[0]
    visible = np.tril(np.ones((t, s.shape[-1]), dtype=bool))
    return softmax_rows(np.where(visible, s, -np.inf))
