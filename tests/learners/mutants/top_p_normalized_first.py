"""Mutant: Normalizes the weights to sum 1 before the running sum (the same for probabilities,
not for weights that sum to 2: [0.6, 0.6, 0.6, 0.2] at p = 0.5 keeps two tokens, not one)."""

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
    if not q.max() > 0:
        raise ValueError("nothing to rescale")
    share = q / q.max()
    share = share / share.sum()  # probabilities first, then their mass
    order = np.argsort(-q, kind="stable")
    out = np.zeros_like(q)
    mass = 0.0
    for i in order:
        if p < 1 and mass >= p:
            break
        out[i] = q[i]
        mass += share[i]
    return to_one(out)
