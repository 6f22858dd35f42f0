"""Correct, by other algorithms (d): flash attention over query strips, each strip against
all the keys it may see at once (a (block, T) strip, linear in T, never (T, T)); MoE
gathering the chosen experts' weights per token slot."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def flash_attention(q, k, v, block):
    q, k, v = qkv(q, k, v)
    b = as_int("block", block, 1)
    t, d = q.shape
    out = np.empty((t, v.shape[1]))
    for i0 in range(0, t, b):
        i1 = min(i0 + b, t)
        s = q[i0:i1] @ k[:i1].T / math.sqrt(d)  # (Bq, i1): a strip, not the (T, T) matrix
        s[np.arange(i1)[None, :] > np.arange(i0, i1)[:, None]] = -np.inf
        p = np.exp(s - s.max(axis=1, keepdims=True))
        out[i0:i1] = (p @ v[:i1]) / p.sum(axis=1, keepdims=True)
    return out


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    x = matrix("x", x)
    w_router = matrix("w_router", w_router)
    w_in = np.asarray(experts_w_in, dtype=np.float64)
    w_out = np.asarray(experts_w_out, dtype=np.float64)
    t, d = x.shape
    e = w_router.shape[1]
    if w_router.shape[0] != d or w_in.ndim != 3 or w_in.shape[:2] != (e, d):
        raise ValueError("bad shapes")
    if w_out.shape != (e, w_in.shape[2], d):
        raise ValueError("bad shapes")
    k = as_int("top_k", top_k, 1)
    if k > e:
        raise ValueError("top_k must be <= E")
    scores = x @ w_router
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]  # (T, k)
    gates = softmax_rows(np.take_along_axis(scores, top, axis=1))  # (T, k)
    y = np.zeros((t, d))
    for slot in range(k):
        a = w_in[top[:, slot]]  # (T, d, d_ff): only the chosen experts' weights are read
        h = gelu(np.einsum("td,tdf->tf", x, a))
        y += gates[:, slot, None] * np.einsum("tf,tfd->td", h, w_out[top[:, slot]])
    return y
