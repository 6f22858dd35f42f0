"""From an adversarial tester's eighteenth held-out set (a false pass, now caught): BUGGY: linear_attention restarts its normaliser z every 1,024 positions (a chunked scan that forgot to carry it)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def linear_attention(q, k, v):
    out = _base.linear_attention(q, k, v)  # every check first
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    fq = np.where(q > 0, q + 1.0, np.exp(np.minimum(q, 0)))
    fk = np.where(k > 0, k + 1.0, np.exp(np.minimum(k, 0)))
    s = np.zeros((q.shape[1], v.shape[1]))
    z = np.zeros(q.shape[1])
    for t in range(q.shape[0]):
        if t and t % 1024 == 0:
            z = np.zeros(q.shape[1])
        s += np.outer(fk[t], v[t])
        z += fk[t]
        out[t] = fq[t] @ s / (fq[t] @ z)
    return out
