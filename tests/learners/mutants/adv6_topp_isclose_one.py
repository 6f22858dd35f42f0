"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: top_p_renormalize keeps every token when np.isclose(p, 1): p = 0.999995 keeps a 4e-6 tail the contract cuts."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_p_renormalize(probs, p):
    out = _base.top_p_renormalize(probs, p)
    if np.isclose(float(p), 1.0):  # <- "p ~ 1: keep them all"
        return _base.top_p_renormalize(probs, 1.0)
    return out
