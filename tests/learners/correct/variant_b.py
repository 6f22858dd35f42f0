"""Correct, by other algorithms (b): flash attention that skips the masked half of each
diagonal tile (per query row, only the keys up to it); linear attention with z folded into S
as an extra column of ones appended to v."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def flash_attention(q, k, v, block):
    q, k, v = qkv(q, k, v)
    b = as_int("block", block, 1)
    t, d = q.shape
    scale = 1.0 / math.sqrt(d)
    out = np.empty((t, v.shape[1]))
    for i0 in range(0, t, b):
        i1 = min(i0 + b, t)
        m = np.full(i1 - i0, -np.inf)
        l_sum = np.zeros(i1 - i0)
        acc = np.zeros((i1 - i0, v.shape[1]))
        for j0 in range(0, i0, b):  # tiles entirely in the past: no mask needed
            s = (q[i0:i1] @ k[j0 : j0 + b].T) * scale
            m_new = np.maximum(m, s.max(axis=1))
            p = np.exp(s - m_new[:, None])
            r = np.exp(m - m_new)
            l_sum = l_sum * r + p.sum(axis=1)
            acc = acc * r[:, None] + p @ v[j0 : j0 + b]
            m = m_new
        for row in range(i0, i1):  # the diagonal tile: each row only up to itself
            i = row - i0
            s = (k[i0 : row + 1] @ q[row]) * scale  # (row - i0 + 1,)
            m_new = max(m[i], s.max())
            p = np.exp(s - m_new)
            r = math.exp(m[i] - m_new)
            l_sum[i] = l_sum[i] * r + p.sum()
            acc[i] = acc[i] * r + p @ v[i0 : row + 1]
            m[i] = m_new
        out[i0:i1] = acc / l_sum[:, None]
    return out


def linear_attention(q, k, v):
    q, k, v = qkv(q, k, v)
    d_v = v.shape[1]
    v1 = np.concatenate([v, np.ones((v.shape[0], 1))], axis=1)  # z rides along as a column
    fq, fk = phi(q), phi(k)
    state = np.zeros((q.shape[1], d_v + 1))
    out = np.empty((q.shape[0], d_v))
    for t in range(q.shape[0]):
        state += np.outer(fk[t], v1[t])
        num = fq[t] @ state
        out[t] = num[:d_v] / num[d_v]
    return out
