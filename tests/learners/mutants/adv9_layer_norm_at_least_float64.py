"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: layer_norm computes in np.result_type(x, float64): longdouble x gives a longdouble result, not float64."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def layer_norm(x, gain, bias, eps=1e-5):
    out = _base.layer_norm(x, gain, bias, eps)
    return out.astype(np.result_type(np.asarray(x), np.float64))  # <- "at least float64"
