"""From an adversarial tester's twenty-first held-out set (a false pass, now caught): BUGGY: softmax_temperature writes (B, T, V) logits' rows into np.empty(shape), a float64 buffer: float32 logits give a float64 result."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def softmax_temperature(logits, temperature):
    out = _base.softmax_temperature(logits, temperature)
    z = np.asarray(logits)
    if z.ndim == 3:
        buffer = np.empty(z.shape)
        buffer[...] = out
        return buffer
    return out
