"""Mutant: Subtracts the max, divides and exponentiates in the caller's logits (z -= ..., np.exp(z,
out=z)): the right probabilities, written over the logits a sampling loop reuses. From an
adversarial tester's held-out set (p_temp_inplace)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def softmax_temperature(logits, temperature):
    if isinstance(temperature, bool) or not math.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature")
    z = np.asarray(logits)
    if z.dtype.kind != "f":
        z = z.astype(np.float64)
    if z.ndim < 1 or z.size == 0 or not np.all(np.isfinite(z)):
        raise ValueError("logits")
    z -= z.max(axis=-1, keepdims=True)  # in place: the caller's logits are overwritten
    wide = z.astype(np.float64) / temperature
    with np.errstate(over="ignore"):
        z[...] = wide.astype(z.dtype)
    np.exp(z, out=z)
    z /= z.sum(axis=-1, keepdims=True)
    return z
