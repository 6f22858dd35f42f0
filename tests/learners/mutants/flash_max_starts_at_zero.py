"""Mutant: The online softmax with its running max started at 0 instead of -inf: when every score
of a row is far below 0 (q = 30, k = -30), exp underflows to 0 and the row is 0/0. From an
adversarial tester's held-out set (p_flash_m0_init)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def flash_attention(q, k, v, block):
    q, k, v = qkv(q, k, v)
    block = as_int("block", block, 1)
    T, d = q.shape
    out = np.empty((T, v.shape[1]))
    for i0 in range(0, T, block):
        i1 = min(i0 + block, T)
        m = np.zeros(i1 - i0)
        l = np.zeros(i1 - i0)
        acc = np.zeros((i1 - i0, v.shape[1]))  # m starts at 0
        for j0 in range(0, i1, block):
            j1 = min(j0 + block, T)
            s = q[i0:i1] @ k[j0:j1].T / math.sqrt(d)
            s = np.where(np.arange(j0, j1)[None, :] > np.arange(i0, i1)[:, None], -np.inf, s)
            mn = np.maximum(m, s.max(axis=1))
            p = np.exp(s - mn[:, None])
            r = np.exp(m - mn)
            l = l * r + p.sum(1)
            acc = acc * r[:, None] + p @ v[j0:j1]
            m = mn
        out[i0:i1] = acc / l[:, None]
    return out
