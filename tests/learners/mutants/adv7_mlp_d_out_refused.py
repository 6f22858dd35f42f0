"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: position_wise_mlp requires w_out of shape (d_ff, d): a valid d_out != d is refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def position_wise_mlp(x, w_in, w_out):
    if np.asarray(w_out).shape[-1] != np.asarray(x).shape[-1]:  # <- "the block keeps d"
        raise ValueError("w_out must be (d_ff, d)")
    return _base.position_wise_mlp(x, w_in, w_out)
