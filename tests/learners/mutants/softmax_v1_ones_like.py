"""Mutant: softmax_temperature answers V = 1 with np.ones_like(logits), which keeps an
integer or bool dtype where the contract's result is float64 (a buggy-learner round,
2026-12-08)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *


def softmax_temperature(logits, temperature):
    out = _base.softmax_temperature(logits, temperature)  # checks every argument first
    z = np.asarray(logits)
    if z.ndim == 1 and z.shape[0] == 1:
        return np.ones_like(z)
    return out
