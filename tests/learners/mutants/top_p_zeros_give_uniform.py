"""Mutant: top_p_renormalize answers probs that are all 0 with a uniform distribution over
the kept tokens instead of refusing them. The contract (decided in issue 22): as in top-k,
nothing to rescale is a ValueError. Caught by the all-zero case of
contract.top-p-renormalize."""

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
    if not q.any():  # no mass at all: every token equally likely
        return np.full(q.size, 1.0 / q.size)
    order = np.argsort(-q, kind="stable")
    out = np.zeros_like(q)
    mass = 0.0
    for i in order:
        if p < 1 and mass >= p:
            break
        out[i] = q[i]
        mass += q[i]
    return to_one(out)
