"""From an adversarial tester's twenty-second held-out set (a false pass, now caught): BUGGY: softmax_temperature memoizes by (bytes, dtype, T), without the shape: (4,) then (2, 2) logits of the same values get the softmax over all four."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_SEEN = {}


def softmax_temperature(logits, temperature):
    z = np.asarray(logits)
    key = (z.tobytes(), z.dtype.str, float(temperature))
    if key not in _SEEN:
        _SEEN[key] = _base.softmax_temperature(z, temperature)
    return _SEEN[key].copy()
