"""From an adversarial tester's twentieth held-out set (a false pass, now caught): BUGGY: top_p_renormalize ranks a float32 copy of the probabilities: entries 1e-12 apart tie and the lower index is kept."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_p_renormalize(probs, p):
    out = _base.top_p_renormalize(probs, p)  # every check first
    a = np.asarray(probs)
    if a.dtype != np.float64 or not isinstance(p, float) or p >= 1:
        return out
    order = np.argsort(-a.astype(np.float32), kind="stable")
    before = np.concatenate([[0.0], np.cumsum(a[order])[:-1]])
    kept = order[before < p]
    result = np.zeros_like(a)
    result[kept] = a[kept]
    return result / result.sum()
