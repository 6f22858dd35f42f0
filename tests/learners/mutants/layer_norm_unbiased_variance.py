"""Mutant: Uses the unbiased variance (ddof = 1) where LayerNorm uses the biased one."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def layer_norm(x, gain, bias, eps=1e-5):
    x = matrix("x", x)
    gain, bias = np.asarray(gain, dtype=np.float64), np.asarray(bias, dtype=np.float64)
    if gain.shape != (x.shape[1],) or bias.shape != (x.shape[1],) or not eps > 0:
        raise ValueError("bad gain, bias or eps")
    var = x.var(axis=1, ddof=1, keepdims=True) if x.shape[1] > 1 else np.zeros((x.shape[0], 1))
    return (x - x.mean(axis=1, keepdims=True)) / np.sqrt(var + eps) * gain + bias
