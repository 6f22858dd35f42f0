"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: top_k_renormalize uses np.argpartition when V > 1024: ties no longer keep the lowest index."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# top_k_renormalize switches to np.argpartition for V > 1024 (real vocabularies, for speed): ties at the boundary no longer keep the lower index
_topk_base = top_k_renormalize


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=np.float64)
    if p.ndim != 1 or p.size <= 1024:
        return _topk_base(probs, k)
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be finite and >= 0")
    k = as_int("k", k, 1)
    if k > p.size:
        raise ValueError("k must be <= V")
    idx = np.argpartition(-p, k - 1)[:k]
    out = np.zeros_like(p)
    out[idx] = p[idx]
    return to_one(out)
