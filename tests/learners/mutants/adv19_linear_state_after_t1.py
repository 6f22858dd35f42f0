"""From an adversarial tester's nineteenth held-out set (a false pass, now caught): BUGGY: linear_attention keeps its sums S and z after a T = 1 call and starts the next call of that width from them."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_STATE = {}


def linear_attention(q, k, v):
    out = _base.linear_attention(q, k, v)
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    if q.shape[0] != 1:
        return out
    fq = np.where(q > 0, q + 1.0, np.exp(np.minimum(q, 0)))
    fk = np.where(k > 0, k + 1.0, np.exp(np.minimum(k, 0)))
    s, z = _STATE.get(
        (q.shape[1], v.shape[1]), (np.zeros((q.shape[1], v.shape[1])), np.zeros(q.shape[1]))
    )
    s = s + np.outer(fk[0], v[0])
    z = z + fk[0]
    _STATE[(q.shape[1], v.shape[1])] = (s, z)
    return (fq[0] @ s / (fq[0] @ z))[None, :]
