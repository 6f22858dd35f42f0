"""Mutant: With every expert chosen (top_k = E) takes a dense shortcut whose softmax forgets to
subtract the max: router scores of 1e3 overflow to NaN there, and only there."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
from _base import *
from _base import moe_layer as routed_moe_layer


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    xs, router = np.asarray(x, dtype=np.float64), np.asarray(w_router, dtype=np.float64)
    w_in = np.asarray(experts_w_in, dtype=np.float64)
    w_out = np.asarray(experts_w_out, dtype=np.float64)
    dense = (
        type(top_k) is int
        and xs.ndim == 2
        and router.ndim == 2
        and top_k == router.shape[1]
        and router.shape[0] == xs.shape[1]
        and w_in.ndim == 3
        and w_in.shape[:2] == router.shape[::-1]
        and w_out.shape == (router.shape[1], w_in.shape[2], xs.shape[1])
    )
    if not dense:
        return routed_moe_layer(x, w_router, experts_w_in, experts_w_out, top_k)
    gates = np.exp(xs @ router)  # (T, E), without the max
    gates = gates / gates.sum(axis=1, keepdims=True)
    return sum(
        gates[:, e : e + 1] * position_wise_mlp(xs, w_in[e], w_out[e])
        for e in range(router.shape[1])
    )
