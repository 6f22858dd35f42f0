"""From an adversarial tester's eighth held-out set (a false pass, now caught): BUGGY: averaging_model casts only float input to float64, so integer rows are summed in int64 and wrap around: [[2**62], [2**62]] gives a negative mean."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def averaging_model(x):
    x = np.asarray(x)
    if x.dtype.kind in "iu" and x.ndim == 2 and x.size:  # <- "integers are exact already"
        sums = np.cumsum(x, axis=0)  # int64: wraps past 2**63
        return sums / np.arange(1, len(x) + 1)[:, None]
    return _base.averaging_model(x)
