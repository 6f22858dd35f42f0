"""Mutant: softmax_temperature returns the greedy one-hot (ties split) below T = 1e-12:
logits 1e-12 apart at T = 1e-13 give [0, 1] where the reference gives [4.54e-5, 0.99995]
(a buggy-learner round, 2026-12-07)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *


def softmax_temperature(logits, temperature):
    out = _base.softmax_temperature(logits, temperature)  # the arguments checked as ever
    t = temperature
    if isinstance(t, (int, float, np.floating)) and not isinstance(t, bool) and 0 < t < 1e-12:
        z = np.asarray(logits)
        top = z == z.max(axis=-1, keepdims=True)
        return (top / top.sum(axis=-1, keepdims=True)).astype(out.dtype)
    return out
