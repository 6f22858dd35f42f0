"""Mutant: flash_attention takes q, k, v as they come and fills a float64 output: for
float32 inputs every tile's scores, exponentials and sums are float32, so the float64
result is only float32-accurate (about 1e-7 relative). The contract: float64 results,
computed in float64. Caught by the float32 case of contract.flash-attention (issue 22)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def flash_attention(q, k, v, block):
    q, k, v = np.asarray(q), np.asarray(k), np.asarray(v)  # float32 stays float32
    if q.dtype.kind not in "f":
        q, k, v = (a.astype(np.float64) for a in (q, k, v))
    if q.ndim != 2 or k.shape != q.shape or v.ndim != 2 or v.shape[0] != q.shape[0]:
        raise ValueError("q, k must be (T, d) and v (T, d_v)")
    if 0 in q.shape or 0 in v.shape:
        raise ValueError("T, d and d_v must be >= 1")
    b = as_int("block", block, 1)
    t, d = q.shape
    out = np.zeros((t, v.shape[1]))  # float64: the answer looks right
    for i in range(0, t, b):
        qi = (
            q[i : i + b] / np.float32(math.sqrt(d))
            if q.dtype == np.float32
            else q[i : i + b] / math.sqrt(d)
        )
        rows = np.arange(i, min(i + b, t))
        m = np.full(len(rows), -np.inf, dtype=q.dtype)
        denom = np.zeros(len(rows), dtype=q.dtype)
        acc = np.zeros((len(rows), v.shape[1]), dtype=q.dtype)
        for j in range(0, rows[-1] + 1, b):
            cols = np.arange(j, min(j + b, t))
            s = qi @ k[j : j + b].T
            s[cols[None, :] > rows[:, None]] = -np.inf
            new_m = np.maximum(m, s.max(axis=1))
            p = np.exp(s - new_m[:, None])
            alpha = np.exp(m - new_m)
            denom = denom * alpha + p.sum(axis=1)
            acc = acc * alpha[:, None] + p @ v[j : j + b]
            m = new_m
        out[i : i + b] = acc / denom[:, None]
    return out
