"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: softmax_temperature below machine epsilon returns the argmax's one-hot, so tied logits lose their equal share."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def softmax_temperature(logits, temperature):
    out = _base.softmax_temperature(logits, temperature)
    if isinstance(temperature, float) and 0 < temperature < np.finfo(float).eps:
        z = np.asarray(logits)
        if z.ndim == 1:
            one = np.zeros_like(out)
            one[int(np.argmax(z))] = 1  # <- the first of the tied maxima only
            return one
    return out
