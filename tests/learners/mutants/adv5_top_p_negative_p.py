"""From an adversarial tester's fifth held-out set (a false pass, now caught): BUGGY: top_p_renormalize refuses p = 0, p > 1 and NaN but not p < 0, and keeps the first
token: top_p_renormalize([0.5, 0.3, 0.2], -0.5) gives [1, 0, 0] instead of ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_p_renormalize(probs, p):
    if isinstance(p, float | int) and p < 0:
        probs = np.asarray(probs, dtype=np.float64)
        out = np.zeros_like(probs)
        out[int(np.argmax(probs))] = 1.0  # <- a negative p keeps the first token
        return out
    return _base.top_p_renormalize(probs, p)
