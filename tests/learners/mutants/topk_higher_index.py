"""Mutant: Reverses an ascending sort: at a tie the higher index is kept."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=np.float64)
    if p.ndim != 1 or p.size == 0 or not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be a finite, non-negative vector")
    k = as_int("k", k, 1)
    if k > p.size:
        raise ValueError("k must be <= V")

    keep = np.argsort(p, kind="stable")[::-1][:k]
    out = np.zeros_like(p)
    out[keep] = p[keep]
    return out / out.sum()
