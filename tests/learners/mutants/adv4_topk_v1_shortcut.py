"""From an adversarial tester's fourth held-out set (a false pass, now caught): BUGGY: top_k_renormalize answers V = 1 with [1.0] once k is checked, before checking the
probability: [nan] or [0.0] (nothing to rescale) at k = 1 give [1.0] instead of ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=np.float64)
    if p.shape == (1,) and as_int("k", k, 1) == 1:
        return np.ones(1)  # <- shortcut before the checks of probs
    return _base.top_k_renormalize(probs, k)
