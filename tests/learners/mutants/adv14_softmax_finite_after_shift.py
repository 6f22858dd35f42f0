"""From an adversarial tester's fourteenth held-out set (a false pass, now caught): BUGGY: softmax_temperature tests its logits for finiteness after subtracting the max: [1e308, -1e308] (finite) is refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def softmax_temperature(logits, temperature):
    z = np.asarray(logits, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        shifted = z - z.max(axis=-1, keepdims=True) if z.size else z
    if not np.all(np.isfinite(shifted)):
        raise ValueError("logits must be finite")
    return _base.softmax_temperature(logits, temperature)
