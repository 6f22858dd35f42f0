"""Mutant: top_k_renormalize keeps the probs' own dtype while it works and casts only the
answer: for float32 probs the kept entries are rescaled in float32, so the float64 result
is only float32-accurate (off by about 3e-8). The contract: float64 results, computed in
float64. Caught by the float32 cases of contract.top-k-renormalize (issue 22)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
from _base import *


def top_k_renormalize(probs, k):
    p = np.asarray(probs)  # float32 stays float32 here
    if p.ndim != 1 or p.size == 0:
        raise ValueError("probs must be a non-empty vector")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be finite and >= 0")
    if not np.issubdtype(p.dtype, np.floating):
        p = p.astype(np.float64)
    k = as_int("k", k, 1)
    if k > p.size:
        raise ValueError("k must be <= V")
    order = np.argsort(-p, kind="stable")
    out = np.zeros_like(p)
    out[order[:k]] = p[order[:k]]
    return np.asarray(to_one(out), dtype=np.float64)
