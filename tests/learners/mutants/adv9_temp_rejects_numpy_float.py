"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: softmax_temperature accepts only int and float temperatures: T = np.float32(0.5) is refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


_orig_softmax_temperature = softmax_temperature


def softmax_temperature(logits, temperature):
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)):
        raise ValueError("temperature must be a number")
    return _orig_softmax_temperature(logits, temperature)
