"""From an adversarial tester's twelfth held-out set (a false pass, now caught): BUGGY: linear_attention casts only float inputs: int8 q, k of 127 give φ = x + 1 = -128 in int8."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def linear_attention(q, k, v):
    out = _base.linear_attention(q, k, v)  # the base's checks
    q, k = np.asarray(q), np.asarray(k)
    if q.dtype.kind in "iu" and k.dtype.kind in "iu":  # <- "integers are exact": not cast
        with np.errstate(over="ignore"):
            fq, fk = (np.where(a > 0, a + 1, np.exp(np.minimum(a, 0))) for a in (q, k))
        s = np.cumsum(fk[:, :, None] * np.asarray(v, dtype=np.float64)[:, None, :], axis=0)
        z = np.cumsum(fk, axis=0)  # (T, d), as s is (T, d, d_v)
        return np.einsum("td,tdv->tv", fq, s) / np.einsum("td,td->t", fq, z)[:, None]
    return out
