"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: sinusoidal_positions squeezes its table: T = 1 gives shape (d,), not (1, d)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def sinusoidal_positions(length, d_model):
    t = as_int("length", length, 0)
    omega = _omega(d_model)
    angles = np.arange(t, dtype=np.float64)[:, None] * omega[None, :]
    pe = np.stack([np.sin(angles), np.cos(angles)], axis=-1)  # (T, d/2, 2): interleaved
    return pe.reshape(t, -1).squeeze() if t else np.zeros((0, 2 * omega.size))
