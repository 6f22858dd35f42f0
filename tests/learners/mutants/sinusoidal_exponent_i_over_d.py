"""Mutant: ω_i = 10000^(−i/d) instead of 10000^(−2i/d)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def sinusoidal_positions(length, d_model):
    t = as_int("length", length, 0)
    d = as_int("d_model", d_model, 2)
    if d % 2:
        raise ValueError("d must be even")
    omega = 10000.0 ** (-np.arange(d // 2) / d)
    pe = np.zeros((t, d))
    pe[:, 0::2] = np.sin(np.arange(t)[:, None] * omega)
    pe[:, 1::2] = np.cos(np.arange(t)[:, None] * omega)
    return pe
