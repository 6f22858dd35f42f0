"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: softmax_temperature keeps float16 and float32 and turns every other dtype into float64: long double logits come back float64."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def softmax_temperature(logits, temperature):
    z = np.asarray(logits)
    if z.dtype not in (np.float16, np.float32):
        z = z.astype(np.float64)  # <- a long double too
    return _base.softmax_temperature(z, temperature)
