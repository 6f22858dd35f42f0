"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: linear_attention works in chunks of 256 rows and carries z but restarts S: rows from 256 on are wrong."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# linear_attention in chunks of 256 carries z but restarts S each chunk: rows from 256 on are wrong
def linear_attention(q, k, v):
    q, k, v = qkv(q, k, v)
    fq, fk = phi(q), phi(k)
    t, d = q.shape
    out = np.zeros((t, v.shape[1]))
    z = np.zeros(d)
    chunk = 256
    for c in range(0, t, chunk):
        kv = np.einsum("ti,tj->tij", fk[c : c + chunk], v[c : c + chunk])
        sc = np.cumsum(kv, axis=0)
        zc = z + np.cumsum(fk[c : c + chunk], axis=0)
        num = np.einsum("ti,tij->tj", fq[c : c + chunk], sc)
        den = np.einsum("ti,ti->t", fq[c : c + chunk], zc)
        out[c : c + chunk] = num / den[:, None]
        z = zc[-1]
    return out
