"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: top_p_renormalize accepts p up to 1 + 1e-9 and takes it as 1."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_p_renormalize(probs, p):
    if isinstance(p, float) and 1 < p <= 1 + 1e-9:
        p = 1.0  # <- rounding error forgiven
    return _base.top_p_renormalize(probs, p)
