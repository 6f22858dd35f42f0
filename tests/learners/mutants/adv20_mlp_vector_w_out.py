"""From an adversarial tester's twentieth held-out set (a false pass, now caught): BUGGY: position_wise_mlp accepts a (d_ff,) w_out and returns (T,) instead of refusing it."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def position_wise_mlp(x, w_in, w_out):
    w = np.asarray(w_out)
    if w.ndim == 1 and w.size:
        return _base.position_wise_mlp(x, w_in, w[:, None])[:, 0]
    return _base.position_wise_mlp(x, w_in, w_out)
