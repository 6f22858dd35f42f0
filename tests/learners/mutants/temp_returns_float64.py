"""Mutant: Computes and returns float64 whatever the logits' dtype."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def softmax_temperature(logits, temperature):
    if not math.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be finite and > 0")
    z = np.asarray(logits)
    if not np.issubdtype(z.dtype, np.floating):
        z = z.astype(np.float64)
    if z.ndim == 0 or z.shape[-1] == 0 or z.size == 0:
        raise ValueError("no logits")
    if not np.all(np.isfinite(z)):
        raise ValueError("logits must be finite")

    z = z.astype(np.float64)
    z = (z - z.max(axis=-1, keepdims=True)) / temperature
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
