"""Mutant: Divides the max-subtracted logits by T in the logits' own dtype: float16 with T < 6e-8
rounds T to 0 and gives 0/0 = NaN. From an adversarial tester's second held-out set (softmax_divides_in_own_dtype)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def softmax_temperature(logits, temperature):
    if isinstance(temperature, bool | np.bool_) or not isinstance(
        temperature, int | float | np.integer | np.floating
    ):
        raise ValueError("temperature must be a number")
    if not math.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be finite and > 0")
    z = np.asarray(logits)
    if not np.issubdtype(z.dtype, np.floating):
        z = z.astype(np.float64)
    if z.ndim == 0 or z.shape[-1] == 0 or z.size == 0:
        raise ValueError("no logits")
    if not np.all(np.isfinite(z)):
        raise ValueError("logits must be finite")
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        shifted = (z - z.max(axis=-1, keepdims=True)) / z.dtype.type(temperature)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)
