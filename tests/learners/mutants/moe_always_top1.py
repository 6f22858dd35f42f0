"""Mutant: Ignores top_k: every token goes to its best expert alone, with gate 1."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    x = matrix("x", x)
    w_router = matrix("w_router", w_router)
    w_in = np.asarray(experts_w_in, dtype=np.float64)
    w_out = np.asarray(experts_w_out, dtype=np.float64)
    t, d = x.shape
    e = w_router.shape[1]
    k = as_int("top_k", top_k, 1)
    if k > e:
        raise ValueError("top_k must be <= E")
    scores = x @ w_router
    best = np.argmax(scores, axis=1)
    y = np.zeros((t, d))
    for expert in range(e):
        tok = np.flatnonzero(best == expert)
        if tok.size:
            y[tok] += position_wise_mlp(x[tok], w_in[expert], w_out[expert])
    return y
