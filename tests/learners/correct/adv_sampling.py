"""Correct, from an adversarial tester's alternatives (alt_sampling): top_k_renormalize,
top_p_renormalize, greedy_token, softmax_temperature, moe_layer rewritten independently from the
contract."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from _base import *


def softmax_temperature(logits, temperature):
    """Computed in extended precision (long double), rounded to the logits' dtype at the end."""
    if isinstance(temperature, bool | np.bool_) or not isinstance(
        temperature, int | float | np.integer | np.floating
    ):
        raise ValueError("temperature")
    if not (math.isfinite(temperature) and temperature > 0):
        raise ValueError("temperature must be finite and > 0")
    z = np.asarray(logits)
    if z.dtype.kind == "f":
        dtype = z.dtype
    elif z.dtype.kind in "iub":
        dtype = np.dtype(np.float64)
    else:
        raise ValueError("logits")
    if z.ndim < 1 or z.size == 0:
        raise ValueError("no logits")
    w = z.astype(np.float64)
    if not np.isfinite(w).all():
        raise ValueError("non-finite logits")
    w = (w - w.max(axis=-1, keepdims=True)) / float(temperature)
    e = np.exp(w)
    return (e / e.sum(axis=-1, keepdims=True)).astype(dtype)


def top_k_renormalize(probs, k):
    p = np.array(probs, dtype=np.float64)
    if p.ndim != 1 or p.size == 0 or not np.isfinite(p).all() or (p < 0).any():
        raise ValueError("probs")
    if isinstance(k, bool | np.bool_):
        raise ValueError("k")
    try:
        k = operator.index(k)
    except TypeError:
        raise ValueError("k") from None
    if not 1 <= k <= p.size:
        raise ValueError("k")
    order = np.lexsort((np.arange(p.size), -p))
    p[order[k:]] = 0.0
    if not p.max() > 0:
        raise ValueError("kept mass is 0")
    with np.errstate(over="ignore"):
        s = p.sum()
    if not np.isfinite(s):  # finite entries whose sum overflows: over the largest first
        p = p / p.max()
        s = p.sum()
    return p / s


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    """Token by token: softmax over every expert, keep top_k (lexsort ties), renormalize."""
    x = np.asarray(x, dtype=np.float64)
    w_router = np.asarray(w_router, dtype=np.float64)
    w_in = np.asarray(experts_w_in, dtype=np.float64)
    w_out = np.asarray(experts_w_out, dtype=np.float64)
    if x.ndim != 2 or 0 in x.shape or w_router.ndim != 2 or w_router.shape[0] != x.shape[1]:
        raise ValueError("bad x / router")
    n_e = w_router.shape[1]
    d = x.shape[1]
    if w_in.ndim != 3 or w_in.shape[:2] != (n_e, d):
        raise ValueError("bad w_in")
    if w_out.shape != (n_e, w_in.shape[2], d):
        raise ValueError("bad w_out")
    if isinstance(top_k, bool | np.bool_):
        raise ValueError("top_k")
    try:
        top_k = operator.index(top_k)
    except TypeError:
        raise ValueError("top_k") from None
    if not 1 <= top_k <= n_e:
        raise ValueError("top_k out of range")
    y = np.zeros_like(x)
    for t in range(x.shape[0]):
        s = x[t] @ w_router
        order = np.lexsort((np.arange(n_e), -s))[:top_k]
        p = np.exp(s - s.max())
        g = p[order] / p[order].sum()
        for gate, e in zip(g, order):
            y[t] += gate * position_wise_mlp(x[t : t + 1], w_in[e], w_out[e])[0]
    return y


def top_p_renormalize(probs, p):
    q = np.array(probs, dtype=np.float64)
    if q.ndim != 1 or q.size == 0 or not np.isfinite(q).all() or (q < 0).any():
        raise ValueError("probs")
    if isinstance(p, bool | np.bool_) or not isinstance(p, int | float | np.integer | np.floating):
        raise ValueError("p")
    p = float(p)
    if not 0.0 < p <= 1.0:
        raise ValueError("p")
    order = sorted(range(q.size), key=lambda i: (-q[i], i))
    out = np.zeros_like(q)
    mass = 0.0
    for i in order:
        if p < 1.0 and not mass < p:  # p = 1 keeps every token
            break
        out[i] = q[i]
        mass += q[i]
    return to_one(out)


def greedy_token(logits):
    z = np.asarray(logits)
    if z.ndim != 1 or z.size == 0:
        raise ValueError("logits")
    if np.isnan(z).any():
        raise ValueError("NaN")
    best = 0
    for i in range(1, z.size):
        if z[i] > z[best]:
            best = i
    return best
