"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: linear_attention works in chunks of 512 rows and restarts z in each: rows from 512 on are wrong."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def linear_attention(q, k, v):
    out = _base.linear_attention(q, k, v)  # the base's checks, and rows 0..511 as they are
    q, k, v = qkv(q, k, v)
    if q.shape[0] <= 512:
        return out
    fq, fk = phi(q), phi(k)  # (T, d)
    s = np.cumsum(fk[:, :, None] * v[:, None, :], axis=0)  # (T, d, d_v): S carried on
    z = np.cumsum(fk, axis=0)  # (T, d)
    z[512:] -= z[511]  # <- each chunk of 512 restarts its normalizer
    late = (
        np.einsum("td,tdv->tv", fq[512:], s[512:])
        / np.einsum("td,td->t", fq[512:], z[512:])[:, None]
    )
    return np.concatenate([out[:512], late])
