"""Mutant: top_p_renormalize takes the mass before each token as an exactly rounded sum
(math.fsum of the tokens ranked before it) instead of the sequential float64 running sum:
p = 0.9 over [0.4, 0.3, 0.2, 0.1] then keeps three tokens, where the running sum
0.8999999999999999 keeps four. The contract (decided in issue 22): the running sum as
np.cumsum adds. Caught by the prefix-sum cases of contract.top-p-renormalize."""

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
    out = np.zeros_like(q)
    for n, i in enumerate(order):
        if p < 1 and math.fsum(q[order[:n]]) >= p:
            break
        out[i] = q[i]
    return to_one(out)
