"""Mutant: flash_attention checks k vs q but never v's T: a longer v is silently truncated"""

# ruff: noqa  (a learner's file, kept as a learner writes it)
import math
import operator

import numpy as np
from _base import *


def flash_attention(q, k, v, block):
    q, k, v = matrix("q", q), matrix("k", k), matrix("v", v)
    if k.shape != q.shape:
        raise ValueError("q, k must be (T, d)")
    b = as_int("block", block, 1)
    t, d = q.shape
    out = np.zeros((t, v.shape[1]))
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
