"""Correct, from an adversarial tester's fifteenth held-out set (c06, its flash attention):
query strips against all their visible keys at once, (block, i1) scores per strip. Its peak
at T = 512 is noisy enough that the exponent of the peak's increments over T = 512, 1,024
and 2,048 reads 1.50: kept, because a measure of that kind would fail a correct form."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math
import operator

import numpy as np

from _base import *


def _whole(x, least, label):
    if type(x) is bool or isinstance(x, np.bool_):
        raise ValueError(f"{label} may not be a bool")
    if not hasattr(type(x), "__index__"):
        raise ValueError(f"{label} must be an integer, got {type(x).__name__}")
    x = operator.index(x)
    if x < least:
        raise ValueError(f"{label} must be at least {least}, got {x}")
    return x


def _qkv(q, k, v):
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    if not (q.ndim == k.ndim == v.ndim == 2):
        raise ValueError("q, k, v must be 2-D")
    T, d = q.shape
    if k.shape != (T, d) or v.shape[0] != T or T < 1 or d < 1 or v.shape[1] < 1:
        raise ValueError("q, k (T, d) and v (T, d_v) with T, d, d_v >= 1")
    return q, k, v


def flash_attention(q, k, v, block):
    q, k, v = _qkv(q, k, v)
    B = _whole(block, 1, "block")
    T, d = q.shape
    B = min(B, T)
    out = np.empty((T, v.shape[1]))
    inv = 1.0 / math.sqrt(d)
    for i0 in range(0, T, B):  # query strips against every visible key at once: (B, i1) scores
        i1 = min(i0 + B, T)
        s = q[i0:i1] @ k[:i1].T * inv
        s[np.arange(i1)[None, :] > np.arange(i0, i1)[:, None]] = -np.inf
        s -= s.max(axis=1, keepdims=True)
        np.exp(s, out=s)
        out[i0:i1] = (s @ v[:i1]) / s.sum(axis=1, keepdims=True)
    return out
