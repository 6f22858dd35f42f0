"""Mutant: Ranks by an ascending sort reversed: among tied tokens the higher index comes first."""

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
    order = np.argsort(q, kind="stable")[::-1]
    before = np.concatenate(([0.0], np.cumsum(q[order])[:-1]))
    keep = order[before < p]
    out = np.zeros_like(q)
    out[keep] = q[keep]
    return out / out.sum()
