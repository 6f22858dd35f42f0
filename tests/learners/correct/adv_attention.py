"""Correct, from an adversarial tester's alternatives (alt_attention): causal_masked_attention,
multi_head_attention, flash_attention, linear_attention, output_head rewritten independently
from the contract."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from collections.abc import Callable, Sequence
from typing import Literal

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


def _elu_plus_one(x: Array) -> Array:
    """φ(x) = elu(x) + 1: x + 1 for x > 0, exp(x) otherwise; positive, so sums never cancel."""
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def causal_masked_attention(scores):
    """Index the future out with -inf (not HF's most negative float64, which is finite: scores
    at that minimum would tie with it), then a stable softmax in place."""
    s = np.array(scores, dtype=np.float64)  # a copy
    if s.ndim < 2 or s.shape[-1] != s.shape[-2] or s.shape[-1] < 1:
        raise ValueError("scores must be (..., T, T)")
    t_len = s.shape[-1]
    rows, cols = np.triu_indices(t_len, k=1)
    s[..., rows, cols] = -np.inf
    s -= s.max(axis=-1, keepdims=True)
    np.exp(s, out=s)
    s /= s.sum(axis=-1, keepdims=True)
    return s


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    """A loop over heads, each on its own column block, then the blocks of W_O summed."""
    x = np.asarray(x, dtype=np.float64)
    ws = [np.asarray(w, dtype=np.float64) for w in (w_q, w_k, w_v, w_o)]
    w_q, w_k, w_v, w_o = ws
    if x.ndim != 2 or 0 in x.shape or any(w.ndim != 2 for w in ws):
        raise ValueError("bad shapes")
    d = x.shape[1]
    if w_q.shape[0] != d or w_k.shape != w_q.shape or w_v.shape != w_q.shape or w_q.shape[1] == 0:
        raise ValueError("bad projection shapes")
    width = w_q.shape[1]
    if w_o.shape[0] != width or w_o.shape[1] == 0:
        raise ValueError("bad w_o")
    if isinstance(n_head, bool | np.bool_):
        raise ValueError("n_head")
    try:
        n_head = operator.index(n_head)
    except TypeError:
        raise ValueError("n_head") from None
    if n_head < 1 or width % n_head:
        raise ValueError("n_head must divide W")
    hs = width // n_head
    t_len = x.shape[0]
    out = np.zeros((t_len, w_o.shape[1]))
    for h in range(n_head):
        cols = slice(h * hs, (h + 1) * hs)
        q = x @ w_q[:, cols]
        k = x @ w_k[:, cols]
        v = x @ w_v[:, cols]
        s = np.einsum("td,sd->ts", q, k) / np.sqrt(hs)
        w = causal_masked_attention(s)
        out += (w @ v) @ w_o[cols, :]
    return out


def flash_attention(q, k, v, block):
    """One query row at a time, keys in blocks of `block`, online softmax; never (T, T)."""
    q, k, v = _qkv(q, k, v)
    if isinstance(block, bool | np.bool_):
        raise ValueError("block")
    try:
        block = operator.index(block)
    except TypeError:
        raise ValueError("block") from None
    if block < 1:
        raise ValueError("block must be >= 1")
    t_len, d = q.shape
    out = np.empty((t_len, v.shape[1]))
    for i in range(t_len):
        m, l, acc = -math.inf, 0.0, np.zeros(v.shape[1])
        for j0 in range(0, i + 1, block):
            j1 = min(j0 + block, i + 1)
            s = (k[j0:j1] @ q[i]) / math.sqrt(d)
            m_new = max(m, float(s.max()))
            p = np.exp(s - m_new)
            c = math.exp(m - m_new) if m > -math.inf else 0.0
            l = l * c + p.sum()
            acc = acc * c + p @ v[j0:j1]
            m = m_new
        out[i] = acc / l
    return out


def linear_attention(q, k, v):
    """Cumulative sums over t of the (d, d_v) outer products and of φ(k)."""
    q, k, v = _qkv(q, k, v)
    fq, fk = _elu_plus_one(q), _elu_plus_one(k)
    s = np.cumsum(fk[:, :, None] * v[:, None, :], axis=0)  # (T, d, d_v)
    z = np.cumsum(fk, axis=0)  # (T, d)
    num = np.einsum("td,tde->te", fq, s)
    den = np.einsum("td,td->t", fq, z)
    return num / den[:, None]


def output_head(h, table):
    h = np.asarray(h, dtype=np.float64)
    table = np.asarray(table, dtype=np.float64)
    if h.ndim != 2 or table.ndim != 2 or h.shape[1] != table.shape[1]:
        raise ValueError("widths")
    return np.einsum("td,vd->tv", h, table)
