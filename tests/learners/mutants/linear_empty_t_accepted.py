"""Mutant: linear_attention never checks T >= 1: T = 0 returns an empty (0, d_v) array"""

# ruff: noqa  (a learner's file, kept as a learner writes it)
import math
import operator

import numpy as np
from _base import *


def linear_attention(q, k, v):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    if (
        q.ndim != 2
        or k.shape != q.shape
        or v.ndim != 2
        or v.shape[0] != q.shape[0]
        or q.shape[1] == 0
        or v.shape[1] == 0
    ):
        raise ValueError("q, k must be (T, d) and v (T, d_v)")
    fq, fk = phi(q), phi(k)
    s = np.zeros((q.shape[1], v.shape[1]))
    z = np.zeros(q.shape[1])
    out = np.zeros((q.shape[0], v.shape[1]))
    for t in range(q.shape[0]):
        s += np.outer(fk[t], v[t])
        z += fk[t]
        out[t] = fq[t] @ s / (fq[t] @ z)
    return out
