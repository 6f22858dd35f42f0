"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: position_wise_mlp passes x through np.atleast_2d: a (3,) x is a (1, 3) one."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def position_wise_mlp(x, w_in, w_out):
    return _base.position_wise_mlp(np.atleast_2d(x), w_in, w_out)
