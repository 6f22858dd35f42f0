"""Mutant: Computes the mass before each ranked token as cumsum - self, which rounds differently
from the contract's float64 running sum: at p equal to the top probability it can keep a
second token. From an adversarial tester's second held-out set (top_p_sum_minus_self)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def top_p_renormalize(probs, p):
    q = np.asarray(probs, dtype=np.float64)
    if q.ndim != 1 or q.size == 0 or not np.all(np.isfinite(q)) or np.any(q < 0):
        raise ValueError("probs must be a finite, non-negative vector")
    if isinstance(p, bool | np.bool_) or not isinstance(p, int | float | np.integer | np.floating):
        raise ValueError("p must be a number")
    if not (math.isfinite(p) and 0 < p <= 1):
        raise ValueError("p must be in (0, 1]")
    order = np.argsort(-q, kind="stable")
    ranked = q[order]
    before = np.cumsum(ranked) - ranked  # the mass before each token, as sum minus self
    keep = order[before < p]
    out = np.zeros_like(q)
    out[keep] = q[keep]
    if out.sum() <= 0:
        raise ValueError("nothing to renormalize")
    return out / out.sum()
