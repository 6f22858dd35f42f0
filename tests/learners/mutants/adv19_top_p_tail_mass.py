"""From an adversarial tester's nineteenth held-out set (a false pass, now caught): BUGGY: top_p_renormalize keeps a token while the mass after it, 1 − before, is above 1 − p, not while the mass before it is below p."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_p_renormalize(probs, p):
    out = _base.top_p_renormalize(probs, p)  # every check first
    if p >= 1:
        return out
    arr = np.asarray(probs, dtype=np.float64)
    order = np.argsort(-arr, kind="stable")
    ranked = arr[order] / arr.sum()
    before = np.concatenate(([0.0], np.cumsum(ranked)[:-1]))
    keep = (1 - before) > (1 - p)
    res = np.zeros(arr.size)
    res[order[keep]] = arr[order][keep] / arr[order][keep].sum()
    return res
