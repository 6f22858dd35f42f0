"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: softmax_temperature multiplies by 1/T: at T = 1e-310, 1/T is inf and the output NaN."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def softmax_temperature(logits, temperature):
    t = float(temperature)
    if 0 < t < math.inf and 1.0 / t == math.inf:  # <- multiplies by 1/T, which overflows
        z = np.asarray(logits, dtype=np.float64)
        with np.errstate(all="ignore"):
            e = np.exp((z - z.max()) * (1.0 / t))  # 0 * inf = NaN
        return e / e.sum()
    return _base.softmax_temperature(logits, temperature)
