"""Mutant: Refuses eps <= 0, which NaN is not: eps = NaN is accepted and every output is NaN."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
from _base import *


def layer_norm(x, gain, bias, eps=1e-5):
    x = matrix("x", x)
    gain, bias = np.asarray(gain, dtype=np.float64), np.asarray(bias, dtype=np.float64)
    if gain.shape != (x.shape[1],) or bias.shape != (x.shape[1],):
        raise ValueError("gain and bias must be (d,)")
    if eps <= 0:
        raise ValueError("eps must be > 0")
    centered = x - x.mean(axis=1, keepdims=True)
    return centered / np.sqrt((centered**2).mean(axis=1, keepdims=True) + eps) * gain + bias
