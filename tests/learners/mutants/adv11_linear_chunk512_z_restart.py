"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: linear_attention works in chunks of 512 rows and restarts z in each: rows from 512 on are wrong."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def linear_attention(q, k, v):
    q, k, v = qkv(q, k, v)
    fq, fk = phi(q), phi(k)
    s = np.zeros((q.shape[1], v.shape[1]))
    z = np.zeros(q.shape[1])
    out = np.zeros((q.shape[0], v.shape[1]))
    chunk = 512
    for c in range(0, q.shape[0], chunk):
        z = np.zeros(q.shape[1])  # each chunk's normalizer (S carries the state across)
        for t in range(c, min(c + chunk, q.shape[0])):
            s += np.outer(fk[t], v[t])
            z += fk[t]
            out[t] = fq[t] @ s / (fq[t] @ z)
    return out
