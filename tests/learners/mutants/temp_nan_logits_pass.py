"""Mutant: Never checks the logits: a NaN logit comes back as NaN probabilities."""

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
    if z.size == 0:
        raise ValueError("no logits")
    z = ((z - z.max(axis=-1, keepdims=True)).astype(np.float64) / temperature).astype(z.dtype)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
