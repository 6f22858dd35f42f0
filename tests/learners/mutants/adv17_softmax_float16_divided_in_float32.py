"""From an adversarial tester's seventeenth held-out set (a false pass, now caught): BUGGY: softmax_temperature divides float16 logits in float32: at T = 1e-50 the division overflows to inf and gives NaN."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def softmax_temperature(logits, temperature):
    z = np.asarray(logits)
    if z.dtype == np.float16 and z.ndim >= 1 and z.size and float(temperature) > 0:
        with np.errstate(all="ignore"):
            s = (z.astype(np.float32) - z.max(axis=-1, keepdims=True)) / np.float32(temperature)
            e = np.exp(s)
            return (e / e.sum(axis=-1, keepdims=True)).astype(np.float16)
    return _base.softmax_temperature(logits, temperature)
