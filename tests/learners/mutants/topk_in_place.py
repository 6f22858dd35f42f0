"""Mutant: Zeroes and rescales the caller's probs in place (np.asarray makes no copy): the right
value, returned as the caller's own array, now changed. From an adversarial tester's
held-out set (b36_topk_inplace)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def top_k_renormalize(probs, k):
    # float64 as the contract asks; np.asarray copies only another dtype, so a float64
    # caller's array is the one mutated below
    p = np.asarray(probs, dtype=np.float64)
    if p.ndim != 1 or p.size == 0 or not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs")
    k = as_int("k", k, 1)
    if k > p.size:
        raise ValueError("k")
    order = np.argsort(-p, kind="stable")
    if not p[order[:k]].max() > 0:
        raise ValueError("the kept probabilities sum to 0")
    p[order[k:]] = 0.0
    with np.errstate(over="ignore"):
        if not np.isfinite(p.sum()):  # finite probs whose sum overflows: over the largest first
            p /= p.max()
    p /= p.sum()
    return p
