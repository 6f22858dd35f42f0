"""Mutant: Subtracts one max over the whole batch instead of each row's: a row far below the
others underflows to 0/0 ([[0, 0], [-1000, -1001]] gives NaN in row 2). From an
adversarial tester's held-out set (n_temp_global_max)."""

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
    z = z - z.max()  # one max for the whole batch
    with np.errstate(over="ignore"):
        z = (z.astype(np.float64) / temperature).astype(z.dtype)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
