"""Mutant: flash_attention at T = 1 returns a copy of v as given (one query attends to itself
only), so a float32 or integer v comes back in its own dtype, where the contract says a
float64 result. Every T = 1 case was float64 (a buggy-learner round, 2026-12-07)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *


def flash_attention(q, k, v, block):
    out = _base.flash_attention(q, k, v, block)  # the arguments checked as ever
    if np.shape(q)[0] == 1:  # one position: it attends to itself only
        return np.array(v, copy=True)
    return out
