"""From an adversarial tester's twelfth held-out set (a false pass, now caught): BUGGY: linear_attention casts only float inputs: int8 q, k of 127 give φ = x + 1 = -128 in int8."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def linear_attention(q, k, v):
    def prep(name, a):
        a = np.asarray(a)
        if a.dtype.kind == "f":
            a = a.astype(np.float64)  # integers are exact: left as they are
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be a non-empty 2-D array")
        return a

    q, k, v = prep("q", q), prep("k", k), prep("v", v)
    if k.shape != q.shape or v.shape[0] != q.shape[0]:
        raise ValueError("q, k must be (T, d) and v (T, d_v)")
    feat = lambda a: np.where(a > 0, a + 1, np.exp(np.minimum(a, 0)))  # elu(a) + 1
    fq, fk = feat(q), feat(k)
    s = np.zeros((q.shape[1], v.shape[1]))
    z = np.zeros(q.shape[1])
    out = np.zeros((q.shape[0], v.shape[1]))
    for t in range(q.shape[0]):
        s += np.outer(fk[t], v[t])
        z += fk[t]
        out[t] = fq[t] @ s / (fq[t] @ z)
    return out
