"""Mutant: flash_attention allocates its output with np.zeros_like(v), so it takes v's dtype:
an integer v gives an integer answer (the weighted sums truncated), a float32 v a float32
one. The contract: float64 results whatever the inputs' dtype. Caught by the integer and
float32 cases of contract.flash-attention (issue 22)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def flash_attention(q, k, v, block):
    v_in = np.asarray(v)
    q, k, v = qkv(q, k, v)
    b = as_int("block", block, 1)
    t, d = q.shape
    out = np.zeros_like(v_in)  # (T, d_v) in v's own dtype
    for i in range(0, t, b):
        qi = q[i : i + b] / math.sqrt(d)
        rows = np.arange(i, min(i + b, t))
        m = np.full(len(rows), -np.inf)
        denom = np.zeros(len(rows))
        acc = np.zeros((len(rows), v.shape[1]))
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
