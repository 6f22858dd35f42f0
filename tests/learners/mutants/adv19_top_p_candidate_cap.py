"""From an adversarial tester's nineteenth held-out set (a false pass, now caught): BUGGY: top_p_renormalize looks at the 1,024 most probable tokens only."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_p_renormalize(probs, p):
    out = _base.top_p_renormalize(probs, p)  # every check first
    arr = np.asarray(probs, dtype=np.float64)
    if arr.size <= 1024:
        return out
    order = np.argsort(-arr, kind="stable")[:1024]
    capped = np.zeros(arr.size)
    capped[order] = arr[order]
    return _base.top_p_renormalize(capped, p)
