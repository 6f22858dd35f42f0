"""Mutant: linear_attention keeps the inputs' float dtype for φ and the running sums, and
writes them into a float64 output: for float32 q, k, v the result is only float32-accurate
(about 1e-7 relative). The contract: float64 results, computed in float64. Caught by the
float32 case of contract.linear-attention (issue 22)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
from _base import *


def linear_attention(q, k, v):
    q, k, v = np.asarray(q), np.asarray(k), np.asarray(v)
    if q.dtype.kind != "f":
        q, k, v = (a.astype(np.float64) for a in (q, k, v))
    if q.ndim != 2 or k.shape != q.shape or v.ndim != 2 or v.shape[0] != q.shape[0]:
        raise ValueError("q, k must be (T, d) and v (T, d_v)")
    if 0 in q.shape or 0 in v.shape:
        raise ValueError("T, d and d_v must be >= 1")
    fq = np.where(q > 0, q + 1, np.exp(np.minimum(q, 0)))  # float32 for float32 q
    fk = np.where(k > 0, k + 1, np.exp(np.minimum(k, 0)))
    s = np.zeros((q.shape[1], v.shape[1]), dtype=q.dtype)
    z = np.zeros(q.shape[1], dtype=q.dtype)
    out = np.zeros((q.shape[0], v.shape[1]))
    for t in range(q.shape[0]):
        s += np.outer(fk[t], v[t]).astype(q.dtype)
        z += fk[t]
        out[t] = fq[t] @ s / (fq[t] @ z)
    return out
