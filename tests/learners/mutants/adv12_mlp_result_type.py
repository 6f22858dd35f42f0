"""From an adversarial tester's twelfth held-out set (a false pass, now caught): BUGGY: position_wise_mlp computes in np.result_type(x, float64): long double x gives a long double result."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def position_wise_mlp(x, w_in, w_out):
    out = _base.position_wise_mlp(x, w_in, w_out)
    return out.astype(np.result_type(np.asarray(x), np.float64))  # <- long double stays
