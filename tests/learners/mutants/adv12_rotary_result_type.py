"""From an adversarial tester's twelfth held-out set (a false pass, now caught): BUGGY: rotary_embedding computes in np.result_type: long double x gives a long double result."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def rotary_embedding(x, offset=0):
    out = _base.rotary_embedding(x, offset)
    return out.astype(np.result_type(np.asarray(x), np.float64))  # <- long double stays
