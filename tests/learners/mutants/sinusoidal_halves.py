"""Mutant: Puts every sine in the first half and every cosine in the second, not interleaved."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def sinusoidal_positions(length, d_model):
    t = as_int("length", length, 0)
    d = as_int("d_model", d_model, 2)
    if d % 2:
        raise ValueError("d must be even")
    omega = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = np.arange(t)[:, None] * omega[None, :]
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)
