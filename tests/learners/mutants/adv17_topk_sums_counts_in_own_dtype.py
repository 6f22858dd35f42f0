"""From an adversarial tester's seventeenth held-out set (a false pass, now caught): BUGGY: top_k_renormalize sums integer counts in their own dtype: int64 [2**62, 2**62, 1] overflows to a negative sum."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_k_renormalize(probs, k):
    p = np.asarray(probs)
    if p.dtype.kind == "i" and p.ndim == 1 and p.size:
        kept = _base.top_k_renormalize(p, k) > 0
        total = p[kept].sum()  # int64: wraps past 2**63
        return np.where(kept, p / float(total), 0.0)
    return _base.top_k_renormalize(probs, k)
