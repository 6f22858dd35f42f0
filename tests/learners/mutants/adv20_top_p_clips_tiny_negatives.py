"""From an adversarial tester's twentieth held-out set (a false pass, now caught): BUGGY: top_p_renormalize sets entries in [-1e-12, 0) to 0 instead of refusing them."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_p_renormalize(probs, p):
    a = np.asarray(probs)
    if a.ndim == 1 and a.dtype.kind == "f":
        a = np.where((a < 0) & (a >= -1e-12), 0.0, a)
    return _base.top_p_renormalize(a, p)
