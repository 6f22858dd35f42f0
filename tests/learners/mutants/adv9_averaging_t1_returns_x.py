"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: averaging_model returns x itself at T=1: integer input stays integer, not float64."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


_orig_avg = averaging_model


def averaging_model(x):
    a = np.asarray(x)
    if a.ndim == 2 and a.shape[0] == 1 and a.shape[1] >= 1:
        return a  # one position: the mean of row 0 is row 0
    return _orig_avg(x)
