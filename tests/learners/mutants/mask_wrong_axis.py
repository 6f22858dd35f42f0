"""Mutant: Normalizes each column instead of each row."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def causal_masked_attention(scores):
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim < 2 or s.shape[-1] != s.shape[-2] or s.shape[-1] == 0:
        raise ValueError("scores must be (..., T, T)")
    t = s.shape[-1]

    z = np.where(np.tril(np.ones((t, t), dtype=bool)), s, -np.inf)
    z = z - z.max(axis=-2, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-2, keepdims=True)
