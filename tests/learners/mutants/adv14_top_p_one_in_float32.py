"""From an adversarial tester's fourteenth held-out set (a false pass, now caught): BUGGY: top_p_renormalize keeps every token when np.float32(p) >= 1: p = 1 - 1e-9 is taken as 1."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_p_renormalize(probs, p):
    if np.float32(p) >= 1.0:
        return _base.top_p_renormalize(probs, 1.0)
    return _base.top_p_renormalize(probs, p)
