"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: averaging_model computes in np.result_type(x, float64): long double x gives a long double mean."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# averaging_model computes in np.result_type(x, float64) ('at least float64'): longdouble x gives a longdouble result
def averaging_model(x):
    a = np.asarray(x)
    dt = np.result_type(a.dtype, np.float64)
    a = a.astype(dt)
    if a.ndim != 2 or 0 in a.shape:
        raise ValueError("x must be (T, d)")
    return np.cumsum(a, axis=0) / np.arange(1, a.shape[0] + 1, dtype=dt)[:, None]
