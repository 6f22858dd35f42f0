"""Correct, by other algorithms (a): flash attention that scales q once up front (a (T, d)
temporary, nothing (T, T)); linear attention in its constant-memory recurrent form (φ taken
one row at a time); MoE that gathers each expert's tokens once through a boolean mask."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def flash_attention(q, k, v, block):
    q, k, v = qkv(q, k, v)
    b = as_int("block", block, 1)
    t, d = q.shape
    qs = q / math.sqrt(d)  # scaled once: (T, d)
    out = np.empty((t, v.shape[1]))
    for i0 in range(0, t, b):
        i1 = min(i0 + b, t)
        m = np.full(i1 - i0, -np.inf)
        l_sum = np.zeros(i1 - i0)
        acc = np.zeros((i1 - i0, v.shape[1]))
        for j0 in range(0, i1, b):
            j1 = min(j0 + b, t)
            s = qs[i0:i1] @ k[j0:j1].T
            if j1 - 1 > i0:
                s = np.where(np.arange(j0, j1)[None, :] > np.arange(i0, i1)[:, None], -np.inf, s)
            m_new = np.maximum(m, s.max(axis=1))
            p = np.exp(s - m_new[:, None])
            scale = np.exp(m - m_new)
            l_sum = l_sum * scale + p.sum(axis=1)
            acc = acc * scale[:, None] + p @ v[j0:j1]
            m = m_new
        out[i0:i1] = acc / l_sum[:, None]
    return out


def linear_attention(q, k, v):
    q, k, v = qkv(q, k, v)
    d, d_v = q.shape[1], v.shape[1]
    state = np.zeros((d, d_v))
    norm = np.zeros(d)
    out = np.empty((q.shape[0], d_v))
    for t in range(q.shape[0]):
        fk = phi(k[t])  # (d,), one row at a time: constant memory besides the output
        state += fk[:, None] * v[t][None, :]
        norm += fk
        fq = phi(q[t])
        out[t] = (fq @ state) / (fq @ norm)
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
    kept = np.take_along_axis(scores, top, axis=1)
    gates = np.exp(kept - kept.max(axis=1, keepdims=True))
    gates = gates / gates.sum(axis=1, keepdims=True)
    weight = np.zeros((t, e))  # each token's gate per expert, 0 where not chosen
    np.put_along_axis(weight, top, gates, axis=1)
    chosen = np.zeros((t, e), dtype=bool)
    np.put_along_axis(chosen, top, True, axis=1)
    y = np.zeros((t, d))
    for j in np.flatnonzero(chosen.any(axis=0)):  # only experts someone chose are run
        rows = chosen[:, j]
        y[rows] += weight[rows, j, None] * position_wise_mlp(x[rows], w_in[j], w_out[j])
    return y
