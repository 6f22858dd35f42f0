"""From an adversarial tester's eighteenth held-out set (a false pass, now caught): BUGGY: top_p_renormalize takes the mass before each token as ranked[:i].sum() (NumPy sums eight or more terms pairwise), not a running sum: ten of 0.1 at p = 0.9 keep nine."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_p_renormalize(probs, p):
    out = _base.top_p_renormalize(probs, p)  # every check first
    ranked = np.sort(np.asarray(probs, dtype=np.float64))[::-1]
    order = np.argsort(-np.asarray(probs, dtype=np.float64), kind="stable")
    before = np.array([ranked[:i].sum() for i in range(ranked.size)])
    keep = (before < p) | (p >= 1)
    out = np.zeros(ranked.size)
    out[order[keep]] = ranked[keep] / ranked[keep].sum()
    return out
