"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: linear_attention checks that k and v share T but not that q has it: q of T = 2 with k, v of T = 3 is accepted."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def linear_attention(q, k, v):
    q, k = np.asarray(q), np.asarray(k)
    if q.ndim == k.ndim == 2 and q.shape[0] < k.shape[0]:  # <- q's T never compared with k's
        return _base.linear_attention(q, k[: len(q)], np.asarray(v)[: len(q)])
    return _base.linear_attention(q, k, v)
