"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: softmax_temperature widens only unsigned integers before subtracting the max: int8 [-100, 100] wraps."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def softmax_temperature(logits, temperature):
    z = np.asarray(logits)
    if z.dtype.kind == "i" and z.size:  # <- only unsigned ints widened first: int8 wraps
        z = z - z.max(axis=-1, keepdims=True)
    return _base.softmax_temperature(z, temperature)
