"""Correct, by other algorithms (c): flash attention one query row at a time (the key
blocks streamed with the online softmax, O(T) memory); linear attention with prefix sums
taken by cumsum over a (T, d, d_v) stack (linear in T, a larger constant)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def flash_attention(q, k, v, block):
    q, k, v = qkv(q, k, v)
    b = as_int("block", block, 1)
    t, d = q.shape
    out = np.empty((t, v.shape[1]))
    for row in range(t):
        qi = q[row] / math.sqrt(d)
        m, l_sum, acc = -math.inf, 0.0, np.zeros(v.shape[1])
        for j0 in range(0, row + 1, b):
            j1 = min(j0 + b, row + 1)  # keys past the row are never touched
            s = k[j0:j1] @ qi
            m_new = max(m, float(s.max()))
            p = np.exp(s - m_new)
            r = math.exp(m - m_new)
            l_sum = l_sum * r + float(p.sum())
            acc = acc * r + p @ v[j0:j1]
            m = m_new
        out[row] = acc / l_sum
    return out


def linear_attention(q, k, v):
    q, k, v = qkv(q, k, v)
    fq, fk = phi(q), phi(k)
    states = np.cumsum(fk[:, :, None] * v[:, None, :], axis=0)  # (T, d, d_v): S_t for every t
    norms = np.cumsum(fk, axis=0)  # (T, d)
    num = np.einsum("td,tde->te", fq, states)
    return num / np.einsum("td,td->t", fq, norms)[:, None]
