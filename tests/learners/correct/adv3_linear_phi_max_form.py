"""Correct, from an adversarial tester's third held-out set (linear_phi_max_form): linear_attention with phi(x) = max(x, 0) + exp(min(x, 0)) (equal to elu(x) + 1 everywhere) and prefix sums by np.cumsum over (T, d, d_v) (linear in T)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def _qkv(q: Array, k: Array, v: Array) -> tuple[Array, Array, Array]:
    """q, k (T, d) and v (T, d_v) as float64, or a ValueError saying which shape is wrong."""
    q = np.asarray(q, dtype=np.float64)  # (T, d)
    k = np.asarray(k, dtype=np.float64)  # (T, d)
    v = np.asarray(v, dtype=np.float64)  # (T, d_v)
    if q.ndim != 2 or k.shape != q.shape or v.ndim != 2 or v.shape[0] != q.shape[0]:
        raise ValueError(f"need q, k (T, d) and v (T, d_v); got {q.shape}, {k.shape}, {v.shape}")
    if 0 in q.shape or 0 in v.shape:
        raise ValueError(f"need T, d, d_v >= 1, got q {q.shape} and v {v.shape}")
    return q, k, v


def linear_attention(q, k, v):  # noqa: F811
    q, k, v = _qkv(q, k, v)
    phi_q = np.maximum(q, 0.0) + np.exp(np.minimum(q, 0.0))
    phi_k = np.maximum(k, 0.0) + np.exp(np.minimum(k, 0.0))
    s = np.cumsum(phi_k[:, :, None] * v[:, None, :], axis=0)  # (T, d, d_v)
    z = np.cumsum(phi_k, axis=0)  # (T, d)
    num = np.einsum("td,tdv->tv", phi_q, s)
    den = np.einsum("td,td->t", phi_q, z)
    return num / den[:, None]
