"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: top_p_renormalize at p = 1 divides the caller's array in place and returns it."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def top_p_renormalize(probs, p):
    out = _base.top_p_renormalize(probs, p)  # the base's checks
    if p == 1 and isinstance(probs, np.ndarray) and probs.dtype == np.float64:
        probs /= probs.sum()  # <- "the whole vocabulary: just renormalize", in place
        return probs
    return out
