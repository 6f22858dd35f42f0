"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: averaging_model returns a copy of x when len(x) == 1, before checking it is (T, d)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def averaging_model(x):
    if len(x) == 1:
        return np.array(x, dtype=float)  # <- before the shape check
    return _base.averaging_model(x)
