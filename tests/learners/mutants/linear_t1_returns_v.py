"""Mutant: linear_attention at T = 1 returns a copy of v as given (φ(q)ᵀφ(k)v / φ(q)ᵀφ(k) is
v), so a float32 or integer v comes back in its own dtype, where the contract says a float64
result. Every T = 1 case was float64 (a buggy-learner round, 2026-12-07)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *


def linear_attention(q, k, v):
    out = _base.linear_attention(q, k, v)  # the arguments checked as ever
    if np.shape(q)[0] == 1:
        return np.array(v, copy=True)
    return out
