"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: softmax_temperature widens only unsigned integers before subtracting the max: int8 [-100, 100] wraps."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def softmax_temperature(logits, temperature):
    if isinstance(temperature, bool | np.bool_) or not isinstance(
        temperature, int | float | np.integer | np.floating
    ):
        raise ValueError("temperature must be a number")
    if not math.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be finite and > 0")
    z = np.asarray(logits)
    if z.dtype.kind in "ub":  # unsigned would wrap around on subtraction: widen first
        z = z.astype(np.int64)
    if z.ndim == 0 or z.shape[-1] == 0 or z.size == 0:
        raise ValueError("no logits")
    if not np.all(np.isfinite(z)):
        raise ValueError("logits must be finite")
    shifted = z - z.max(axis=-1, keepdims=True)
    if not np.issubdtype(shifted.dtype, np.floating):
        shifted = shifted.astype(np.float64)
    out_dtype = shifted.dtype
    e = np.exp((shifted.astype(np.float64) / temperature).astype(out_dtype))
    return e / e.sum(axis=-1, keepdims=True)
