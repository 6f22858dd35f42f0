"""Mutant: The gates as exp(kept scores) / their sum, no max subtracted: router scores of a few
hundred overflow (800 gives NaN). From an adversarial tester's held-out set
(n_moe_gate_no_max)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    x = np.asarray(x, dtype=np.float64)
    w_router = np.asarray(w_router, dtype=np.float64)
    w_in = np.asarray(experts_w_in, dtype=np.float64)
    w_out = np.asarray(experts_w_out, dtype=np.float64)
    if x.ndim != 2 or w_router.ndim != 2 or w_router.shape[0] != x.shape[1]:
        raise ValueError("shapes")
    t, d = x.shape
    E = w_router.shape[1]
    if w_in.ndim != 3 or w_in.shape[:2] != (E, d) or w_out.shape != (E, w_in.shape[2], d):
        raise ValueError("expert shapes")
    top_k = as_int("top_k", top_k, 1)
    if top_k > E:
        raise ValueError("top_k")
    logits = x @ w_router
    chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]
    g = np.exp(np.take_along_axis(logits, chosen, axis=1))  # no max subtracted
    g /= g.sum(axis=1, keepdims=True)
    y = np.zeros((t, d))
    for e in range(E):
        rows, slot = np.nonzero(chosen == e)
        if rows.size:
            y[rows] += g[rows, slot][:, None] * position_wise_mlp(x[rows], w_in[e], w_out[e])
    return y
