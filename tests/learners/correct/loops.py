"""Correct, by other loop orders: the mask as a softmax over each row's visible prefix, the
heads one at a time on their column slices, a running mean, top-k by sorting (−p, i) pairs,
MoE token by token, and the chain rule from conditional tables (the first one divided by
the empty prefix's probability, 1, as the contract says: never by the table's sum)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def causal_masked_attention(scores):
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim < 2 or s.shape[-1] != s.shape[-2] or s.shape[-1] == 0:
        raise ValueError("scores must be (..., T, T)")
    out = np.zeros_like(s)
    for index in np.ndindex(*s.shape[:-2]):
        for t in range(s.shape[-1]):
            row = s[index + (t, slice(0, t + 1))]  # the visible prefix only: deletion
            e = np.exp(row - row.max())
            out[index + (t, slice(0, t + 1))] = e / e.sum()
    return out


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    x = matrix("x", x)
    w_q, w_k, w_v, w_o = (matrix(n, w) for n, w in zip("qkvo", (w_q, w_k, w_v, w_o)))
    if w_q.shape[0] != x.shape[1] or w_k.shape != w_q.shape or w_v.shape != w_q.shape:
        raise ValueError("w_q, w_k, w_v must be (d, W)")
    width = w_q.shape[1]
    if w_o.shape[0] != width:
        raise ValueError("w_o must be (W, d_out)")
    h = as_int("n_head", n_head, 1)
    if width % h:
        raise ValueError("n_head must divide W")
    hs = width // h
    heads = []
    for i in range(h):
        cols = slice(i * hs, (i + 1) * hs)  # head i owns these columns
        q, k, v = x @ w_q[:, cols], x @ w_k[:, cols], x @ w_v[:, cols]
        heads.append(causal_masked_attention(q @ k.T / math.sqrt(hs)) @ v)
    return np.concatenate(heads, axis=1) @ w_o


def averaging_model(x):
    x = matrix("x", x)
    out = np.empty_like(x)
    mean = np.zeros(x.shape[1])
    for t in range(x.shape[0]):
        mean = mean + (x[t] - mean) / (t + 1)  # a running mean, not a cumulative sum
        out[t] = mean
    return out


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=np.float64)
    if p.ndim != 1 or p.size == 0 or not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be a finite, non-negative vector")
    k = as_int("k", k, 1)
    if k > p.size:
        raise ValueError("k must be <= V")
    keep = sorted(range(p.size), key=lambda i: (-p[i], i))[:k]  # ties: the lower index
    out = np.zeros_like(p)
    out[keep] = p[keep]
    top = max(out[i] for i in keep)
    if top <= 0:
        raise ValueError("nothing to renormalize")
    total = sum(out[i] / top for i in keep)  # over the largest first: no overflow
    return out / top / total


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
    y = np.zeros((t, d))
    for i in range(t):
        scores = x[i] @ w_router
        chosen = sorted(range(e), key=lambda j: (-scores[j], j))[:k]
        kept = np.array([scores[j] for j in chosen])
        gates = np.exp(kept - kept.max())
        gates /= gates.sum()
        for gate, j in zip(gates, chosen):
            y[i] += gate * position_wise_mlp(x[i : i + 1], w_in[j], w_out[j])[0]
    return y


def chain_rule_nll(joint, tokens):
    p = np.asarray(joint, dtype=np.float64)
    if p.ndim < 1 or p.size == 0 or len(set(p.shape)) != 1:
        raise ValueError("joint must be (V,)*T")
    if not np.all(np.isfinite(p)) or np.any(p < 0) or abs(p.sum() - 1.0) > 1e-6:
        raise ValueError("joint must hold finite, non-negative probabilities summing to 1")
    if len(tokens) != p.ndim:
        raise ValueError("one token per position")
    idx = [as_int("token", t, 0) for t in tokens]
    if any(i >= p.shape[0] for i in idx):
        raise ValueError("token out of range")
    nll = 0.0
    for t in range(p.ndim):
        # the table P(x_t | x_<t = prefix) as a normalized slice of the prefix's marginal
        sub = p[tuple(idx[:t])]
        table = sub.reshape(sub.shape[0], -1).sum(axis=1) if sub.ndim > 1 else sub
        if table[idx[t]] == 0:  # this token (or its prefix) has probability 0
            return math.inf
        # the prefix's mass; the empty prefix has probability 1, not the table's sum
        nll -= math.log(table[idx[t]] / (table.sum() if t else 1.0))
    return nll
