"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: flash_attention casts only float inputs ('integers are exact'): int8 q·kᵀ wraps."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def flash_attention(q, k, v, block):
    q, k, v = (np.asarray(a) for a in (q, k, v))
    # floats are computed in float64; integers are exact as they are
    q, k, v = (a.astype(np.float64) if a.dtype.kind == "f" else a for a in (q, k, v))
    for a in (q, k, v):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError("q, k, v must be non-empty (T, d)")
    if k.shape != q.shape or v.shape[0] != q.shape[0]:
        raise ValueError("q, k must be (T, d) and v (T, d_v)")
    b = as_int("block", block, 1)
    t, d = q.shape
    out = np.zeros((t, v.shape[1]))
    for i in range(0, t, b):
        rows = np.arange(i, min(i + b, t))
        m = np.full(len(rows), -np.inf)
        denom = np.zeros(len(rows))
        acc = np.zeros((len(rows), v.shape[1]))
        for j in range(0, rows[-1] + 1, b):
            cols = np.arange(j, min(j + b, t))
            s = (q[i : i + b] @ k[j : j + b].T) / math.sqrt(d)
            s[cols[None, :] > rows[:, None]] = -np.inf
            new_m = np.maximum(m, s.max(axis=1))
            p = np.exp(s - new_m[:, None])
            alpha = np.exp(m - new_m)
            denom = denom * alpha + p.sum(axis=1)
            acc = acc * alpha[:, None] + p @ v[j : j + b]
            m = new_m
        out[i : i + b] = acc / denom[:, None]
    return out
