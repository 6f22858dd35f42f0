"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: linear_attention checks that k and v share T but not that q has it: q of T = 2 with k, v of T = 3 is accepted."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from _base import *
import numpy as np


def _elu_plus_one(x: Array) -> Array:
    """φ(x) = elu(x) + 1: x + 1 for x > 0, exp(x) otherwise; positive, so sums never cancel."""
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def linear_attention(q: Array, k: Array, v: Array) -> Array:
    """checks widths and k/v agreement, not that q has k's T."""
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    if (
        q.ndim != 2
        or k.ndim != 2
        or v.ndim != 2
        or q.shape[1] != k.shape[1]
        or v.shape[0] != k.shape[0]
    ):
        raise ValueError("bad shapes")
    if 0 in q.shape or 0 in k.shape or 0 in v.shape:
        raise ValueError("need T, d, d_v >= 1")
    phi_q, phi_k = _elu_plus_one(q), _elu_plus_one(k)
    state = np.zeros((q.shape[1], v.shape[1]))
    norm = np.zeros(q.shape[1])
    out = np.empty((q.shape[0], v.shape[1]))
    for t in range(q.shape[0]):
        if t < k.shape[0]:
            state = state + np.outer(phi_k[t], v[t])
            norm = norm + phi_k[t]
        out[t] = phi_q[t] @ state / (phi_q[t] @ norm)
    return out
