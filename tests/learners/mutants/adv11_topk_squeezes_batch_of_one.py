"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: top_k_renormalize takes (1, V) probs as their one row instead of refusing them."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def top_k_renormalize(probs, k):
    p = np.asarray(probs)
    if p.ndim == 2 and p.shape[0] == 1:
        probs = p[0]  # <- a batch of one taken as its only row, not refused
    return _base.top_k_renormalize(probs, k)
