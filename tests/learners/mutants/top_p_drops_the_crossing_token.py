"""Mutant: Keeps tokens while the mass including them stays within p: the token that crosses p is dropped."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def top_p_renormalize(probs, p):
    q = np.asarray(probs, dtype=np.float64)
    if q.ndim != 1 or q.size == 0 or not np.all(np.isfinite(q)) or np.any(q < 0):
        raise ValueError("probs must be a finite, non-negative vector")
    if not (0 < p <= 1):
        raise ValueError("p must be in (0, 1]")
    order = np.argsort(-q, kind="stable")
    keep = order[np.cumsum(q[order]) <= p]
    if keep.size == 0:
        keep = order[:1]
    out = np.zeros_like(q)
    out[keep] = q[keep]
    return out / out.sum()
