"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: top_p_renormalize returns [1.0] for V=1 after its value checks: [0.0] (no mass) is not refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


_orig_top_p = top_p_renormalize


def top_p_renormalize(probs, p):
    q = np.asarray(probs, dtype=np.float64)
    if q.ndim != 1 or q.size == 0 or not np.all(np.isfinite(q)) or np.any(q < 0):
        raise ValueError("probs must be a finite, non-negative vector")
    if isinstance(p, bool | np.bool_) or not isinstance(p, int | float | np.integer | np.floating):
        raise ValueError("p must be a number")
    if not (math.isfinite(p) and 0 < p <= 1):
        raise ValueError("p must be in (0, 1]")
    if q.size == 1:  # a single token: it is kept, with probability 1
        return np.ones(1)
    return _orig_top_p(probs, p)
