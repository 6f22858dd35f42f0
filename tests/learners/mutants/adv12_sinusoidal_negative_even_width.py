"""From an adversarial tester's twelfth held-out set (a false pass, now caught): BUGGY: sinusoidal_positions refuses only an odd or zero d_model: d_model = -2 gives an empty table."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def sinusoidal_positions(length, d_model):
    if isinstance(d_model, int) and d_model < 0 and d_model % 2 == 0:  # <- "even: fine"
        return np.zeros((length, 0))
    return _base.sinusoidal_positions(length, d_model)
