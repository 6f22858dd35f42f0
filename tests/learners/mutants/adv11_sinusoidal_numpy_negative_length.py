"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: sinusoidal_positions checks length >= 0 for Python ints only: np.int64(-1) gives an empty table."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def sinusoidal_positions(length, d_model):
    if isinstance(length, int) and length < 0:
        raise ValueError("length must be >= 0")
    omega = _omega(d_model)
    positions = np.arange(length, dtype=np.float64)  # an empty range for length 0
    angles = positions[:, None] * omega[None, :]
    pe = np.empty((positions.size, 2 * omega.size))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
