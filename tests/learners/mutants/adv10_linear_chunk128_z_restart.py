"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: linear_attention works in chunks of 128 rows and carries S across chunks but restarts z: rows from 128 on are wrong."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# linear_attention in chunks of 128 (a (C, d, d_v) cumsum per chunk) carries S across chunks but restarts z: rows from 128 on are wrong
def linear_attention(q, k, v):
    q, k, v = qkv(q, k, v)
    fq, fk = phi(q), phi(k)
    t, d = q.shape
    out = np.zeros((t, v.shape[1]))
    s = np.zeros((d, v.shape[1]))
    chunk = 128
    for c in range(0, t, chunk):
        kv = np.einsum("ti,tj->tij", fk[c : c + chunk], v[c : c + chunk])
        sc = s + np.cumsum(kv, axis=0)
        zc = np.cumsum(fk[c : c + chunk], axis=0)
        num = np.einsum("ti,tij->tj", fq[c : c + chunk], sc)
        den = np.einsum("ti,ti->t", fq[c : c + chunk], zc)
        out[c : c + chunk] = num / den[:, None]
        s = sc[-1]
    return out
