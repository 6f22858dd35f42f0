"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: top_p_renormalize returns [1.0] for V=1 after its value checks: [0.0] (no mass) is not refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def top_p_renormalize(probs, p):
    q = np.asarray(probs, dtype=np.float64)
    if q.shape == (1,) and np.isfinite(q[0]) and q[0] >= 0:  # <- V=1: "always [1.0]"
        if isinstance(p, int | float | np.integer | np.floating) and 0 < p <= 1:
            return np.array([1.0])  # even for [0.0], which has no mass to renormalize
    return _base.top_p_renormalize(probs, p)
