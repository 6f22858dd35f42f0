"""Mutant: top_k_renormalize builds its answer with np.zeros_like(probs) and divides in place:
integer weights (counts) give an integer array, and the in-place division raises a
TypeError (NumPy will not cast float64 back to int64). The contract: float64 results for any
real probs, integer ones included. Caught by the integer case of contract.top-k-renormalize
(issue 22)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
from _base import *


def top_k_renormalize(probs, k):
    p = np.asarray(probs)
    if p.ndim != 1 or p.size == 0:
        raise ValueError("probs must be a non-empty vector")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be finite and >= 0")
    k = as_int("k", k, 1)
    if k > p.size:
        raise ValueError("k must be <= V")
    order = np.argsort(-p, kind="stable")
    out = np.zeros_like(p)  # p's dtype: int64 for counts
    out[order[:k]] = p[order[:k]]
    if not out.max() > 0:
        raise ValueError("nothing left to renormalize")
    with np.errstate(over="ignore"):
        total = out.sum()
    if not np.isfinite(total):
        out = out / out.max()
        total = out.sum()
    out /= total
    return out
