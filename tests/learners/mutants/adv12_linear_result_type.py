"""From an adversarial tester's twelfth held-out set (a false pass, now caught): BUGGY: linear_attention computes in np.result_type: long double q, k, v give a long double result."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def linear_attention(q, k, v):
    out = _base.linear_attention(q, k, v)
    return out.astype(np.result_type(np.asarray(q), np.float64))  # <- long double stays
