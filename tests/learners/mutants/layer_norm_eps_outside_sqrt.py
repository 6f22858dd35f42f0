"""Mutant: Adds eps after the square root instead of to the variance."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def layer_norm(x, gain, bias, eps=1e-5):
    x = matrix("x", x)
    gain, bias = np.asarray(gain, dtype=np.float64), np.asarray(bias, dtype=np.float64)
    if gain.shape != (x.shape[1],) or bias.shape != (x.shape[1],) or not eps > 0:
        raise ValueError("bad gain, bias or eps")
    return (x - x.mean(axis=1, keepdims=True)) / (x.std(axis=1, keepdims=True) + eps) * gain + bias
