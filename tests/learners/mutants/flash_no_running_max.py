"""Mutant: Tiles of plain exp(score) summed, no running max: exact in exact arithmetic, but exp
overflows once scores pass 709 (q = k = [[40], [40]] gives NaN). From an adversarial
tester's held-out set (n_flash_no_max)."""

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
        l = np.zeros(i1 - i0)
        acc = np.zeros((i1 - i0, v.shape[1]))
        for j0 in range(0, i1, block):  # plain sums of exp(score): exact, no max kept
            j1 = min(j0 + block, T)
            s = q[i0:i1] @ k[j0:j1].T / math.sqrt(d)
            p = np.where(np.arange(j0, j1)[None, :] > np.arange(i0, i1)[:, None], 0.0, np.exp(s))
            l += p.sum(1)
            acc += p @ v[j0:j1]
        out[i0:i1] = acc / l[:, None]
    return out
