"""Mutant: φ = exp, the softmax kernel's own feature, not elu + 1."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def linear_attention(q, k, v):
    q, k, v = qkv(q, k, v)
    fq, fk = np.exp(q), np.exp(k)
    s = np.zeros((q.shape[1], v.shape[1]))
    z = np.zeros(q.shape[1])
    out = np.zeros((q.shape[0], v.shape[1]))
    for t in range(q.shape[0]):
        s += np.outer(fk[t], v[t])
        z += fk[t]
        out[t] = fq[t] @ s / (fq[t] @ z)
    return out
