"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: layer_norm returns the bias when d == 1 (every row normalizes to 0), before checking gain's shape."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def layer_norm(x, gain, bias, eps=1e-5):
    xs = np.asarray(x, dtype=float)
    if xs.ndim == 2 and xs.shape[1] == 1:
        return np.zeros_like(xs) + np.asarray(bias, dtype=float)  # <- before the gain check
    return _base.layer_norm(x, gain, bias, eps)
