"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: top_k_renormalize tolerates entries down to -1e-12 and clips them to 0."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=float)
    if p.ndim == 1 and np.all(p >= -1e-12):
        p = np.clip(p, 0, None)  # <- a tiny negative entry taken as 0
    return _base.top_k_renormalize(p, k)
