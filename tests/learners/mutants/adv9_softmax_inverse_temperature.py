"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: softmax_temperature multiplies by 1/T: at T = 1e-310, 1/T is inf and the output NaN."""

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
    if not np.issubdtype(z.dtype, np.floating):
        z = z.astype(np.float64)
    if z.ndim == 0 or z.shape[-1] == 0 or z.size == 0:
        raise ValueError("no logits")
    if not np.all(np.isfinite(z)):
        raise ValueError("logits must be finite")
    inv_t = 1.0 / float(temperature)  # multiply by the inverse temperature
    with np.errstate(over="ignore", invalid="ignore"):
        shifted = (z - z.max(axis=-1, keepdims=True)).astype(np.float64) * inv_t
    e = np.exp(shifted.astype(z.dtype))
    return e / e.sum(axis=-1, keepdims=True)
