"""From an adversarial tester's twentieth held-out set (a false pass, now caught): BUGGY: softmax_temperature subtracts one max for a whole (B, T, V) batch: a row 2,000 below the others is 0/0."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def softmax_temperature(logits, temperature):
    z = np.asarray(logits)
    ok = isinstance(temperature, float) and np.isfinite(temperature) and temperature > 0
    if z.ndim == 3 and z.dtype == np.float64 and z.size and np.all(np.isfinite(z)) and ok:
        e = np.exp((z - z.max()) / temperature)
        return e / e.sum(axis=-1, keepdims=True)
    return _base.softmax_temperature(logits, temperature)
