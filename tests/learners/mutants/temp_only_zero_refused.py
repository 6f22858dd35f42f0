"""Mutant: Refuses T = 0 but lets a negative T through (it reverses the order)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def softmax_temperature(logits, temperature):
    if temperature == 0:
        raise ValueError("T = 0 is greedy decoding")
    z = (
        np.asarray(logits, dtype=np.float64)
        if not np.issubdtype(np.asarray(logits).dtype, np.floating)
        else np.asarray(logits)
    )
    z = ((z - z.max(axis=-1, keepdims=True)).astype(np.float64) / temperature).astype(z.dtype)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
