"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: softmax_temperature takes temperature = True as 1."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


import numbers

_base_softmax_temperature = softmax_temperature


def softmax_temperature(logits, temperature):
    if not isinstance(temperature, numbers.Real):  # Python and NumPy reals
        raise ValueError("temperature must be a number")
    return _base_softmax_temperature(logits, float(temperature))
