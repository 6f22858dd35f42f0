"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: moe_layer upcasts only float32: float16 inputs are computed in float16."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# moe_layer upcasts only float32: float16 x and weights are routed and run in float16
_moe_base = moe_layer


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    arrs = [np.asarray(a) for a in (x, w_router, experts_w_in, experts_w_out)]
    if not any(a.dtype == np.float16 for a in arrs):
        return _moe_base(x, w_router, experts_w_in, experts_w_out, top_k)
    x, w_router, w_in, w_out = arrs
    t, d = x.shape
    e = w_router.shape[1]
    k = as_int("top_k", top_k, 1)
    if (
        w_router.shape[0] != d
        or w_in.shape[:2] != (e, d)
        or w_out.shape != (e, w_in.shape[2], d)
        or k > e
    ):
        raise ValueError("shapes")
    scores = x @ w_router
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    kept = np.take_along_axis(scores, top, axis=1)
    gates = softmax_rows(kept)
    y = np.zeros((t, d), dtype=x.dtype)
    for expert in range(e):
        tok, slot = np.nonzero(top == expert)
        if tok.size:
            y[tok] += gates[tok, slot, None] * (gelu(x[tok] @ w_in[expert]) @ w_out[expert])
    return y.astype(np.float64)
