"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: top_k_renormalize multiplies by 1/sum: a subnormal mass [5e-324, 0, 0] gives inf and NaN."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=np.float64)
    if p.ndim != 1 or p.size == 0:
        raise ValueError("probs must be a non-empty vector")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be finite and >= 0")
    k = as_int("k", k, 1)
    if k > p.size:
        raise ValueError("k must be <= V")
    order = np.argsort(-p, kind="stable")
    out = np.zeros_like(p)
    out[order[:k]] = p[order[:k]]
    if not out.max() > 0:
        raise ValueError("nothing left to renormalize")
    with np.errstate(over="ignore"):
        total = out.sum()
    if not np.isfinite(total):
        out = out / out.max()
        total = out.sum()
    with np.errstate(over="ignore", invalid="ignore"):
        return out * (1.0 / total)
