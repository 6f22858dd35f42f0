"""Mutant: The mass before each token summed in float32: a p within 1e-9 of a prefix sum lands
on the wrong side ([0.3, 0.3, 0.2, 0.2] at p = 0.6 + 1e-9 keeps 2 tokens instead of 3).
From an adversarial tester's held-out set (n_topp_float32_cumsum)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def top_p_renormalize(probs, p):
    q = np.asarray(probs, dtype=np.float64)
    if q.ndim != 1 or q.size == 0 or not np.all(np.isfinite(q)) or np.any(q < 0):
        raise ValueError("probs")
    if not (0 < p <= 1):
        raise ValueError("p")
    order = np.argsort(-q, kind="stable")
    before = np.concatenate(([0.0], np.cumsum(q[order].astype(np.float32))[:-1]))
    keep = order[before < p]
    out = np.zeros_like(q)
    out[keep] = q[keep]
    return out / out.sum()
