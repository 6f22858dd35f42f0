"""From an adversarial tester's nineteenth held-out set (a false pass, now caught): BUGGY: sinusoidal_positions counts positions in int16: past 32,767 they wrap around."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def sinusoidal_positions(length, d_model):
    out = _base.sinusoidal_positions(length, d_model)  # every check first
    t = np.arange(int(length), dtype=np.int16).astype(np.float64)[:, None]
    i = np.arange(0, int(d_model), 2)
    w = 10000.0 ** (-i / int(d_model))
    out[:, 0::2] = np.sin(t * w)
    out[:, 1::2] = np.cos(t * w)
    return out
