"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: linear_attention upcasts only float32: float16 q, k, v are computed in float16."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# linear_attention upcasts only float32 inputs: float16 q, k, v run their prefix sums in float16
_lin_base = linear_attention


def linear_attention(q, k, v):
    arrs = [np.asarray(a) for a in (q, k, v)]
    if not all(a.dtype == np.float16 for a in arrs):
        return _lin_base(q, k, v)
    q, k, v = arrs
    if (
        q.ndim != 2
        or k.shape != q.shape
        or v.ndim != 2
        or v.shape[0] != q.shape[0]
        or 0 in q.shape
        or 0 in v.shape
    ):
        raise ValueError("shapes")
    fq, fk = phi(q).astype(np.float16), phi(k).astype(np.float16)
    s = np.zeros((q.shape[1], v.shape[1]), dtype=np.float16)
    z = np.zeros(q.shape[1], dtype=np.float16)
    out = np.zeros((q.shape[0], v.shape[1]))
    for t in range(q.shape[0]):
        s += np.outer(fk[t], v[t])
        z += fk[t]
        out[t] = fq[t] @ s / (fq[t] @ z)
    return out
