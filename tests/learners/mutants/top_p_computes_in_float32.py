"""Mutant: top_p_renormalize works in the probs' own dtype and casts only the answer: for
float32 probs the running sum and the rescaling are float32 (the kept set can change when
p sits within float32's rounding of a prefix sum, and the values are off by about 3e-8).
The contract: float64 results, computed in float64. Caught by the float32 cases of
contract.top-p-renormalize (issue 22)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def top_p_renormalize(probs, p):
    q = np.asarray(probs)
    if not np.issubdtype(q.dtype, np.floating):
        q = q.astype(np.float64)
    if q.ndim != 1 or q.size == 0 or not np.all(np.isfinite(q)) or np.any(q < 0):
        raise ValueError("probs must be a finite, non-negative vector")
    if isinstance(p, bool | np.bool_) or not isinstance(p, int | float | np.integer | np.floating):
        raise ValueError("p must be a number")
    if not (math.isfinite(p) and 0 < p <= 1):
        raise ValueError("p must be in (0, 1]")
    order = np.argsort(-q, kind="stable")
    out = np.zeros_like(q)
    mass = q.dtype.type(0)  # float32 for float32 probs
    for i in order:
        if p < 1 and mass >= p:
            break
        out[i] = q[i]
        mass = mass + q[i]
    return np.asarray(to_one(out), dtype=np.float64)
