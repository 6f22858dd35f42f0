"""From an adversarial tester's fourth held-out set (a false pass, now caught): BUGGY: top_p_renormalize answers V = 1 with [1.0] once p is checked, before checking the
probability: [nan], [-1.0] or [0.0] give [1.0] instead of ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import math
import numpy as np


def top_p_renormalize(probs, p):
    q = np.asarray(probs, dtype=np.float64)
    if (
        q.shape == (1,)
        and isinstance(p, int | float)
        and not isinstance(p, bool)
        and math.isfinite(p)
        and 0 < p <= 1
    ):
        return np.ones(1)  # <- shortcut before the checks of probs
    return _base.top_p_renormalize(probs, p)
