"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: top_k_renormalize treats a kept mass at or below 1e-12 as nothing to renormalize and raises: [1e-13, 0, 0] at k = 1 should give [1, 0, 0]."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_k_renormalize(probs, k):
    out = _base.top_k_renormalize(probs, k)
    p = np.asarray(probs, dtype=np.float64)
    if np.sort(p)[::-1][: min(int(k), p.size)].sum() <= 1e-12:  # "nothing to renormalize"
        raise ValueError("the kept probabilities sum to 0")
    return out
