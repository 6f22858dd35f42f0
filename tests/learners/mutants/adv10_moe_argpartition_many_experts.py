"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: moe_layer routes with np.argpartition when E > 32: tied scores no longer keep the lower expert."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# moe_layer picks each token's top_k with np.argpartition when E > 32 (for speed): router ties no longer keep the lower expert index
_moe_base3 = moe_layer


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    wr = np.asarray(w_router)
    if wr.ndim != 2 or wr.shape[1] <= 32:
        return _moe_base3(x, w_router, experts_w_in, experts_w_out, top_k)
    x = matrix("x", x)
    w_router = matrix("w_router", w_router)
    w_in = np.asarray(experts_w_in, dtype=np.float64)
    w_out = np.asarray(experts_w_out, dtype=np.float64)
    t, d = x.shape
    e = w_router.shape[1]
    if (
        w_router.shape[0] != d
        or w_in.ndim != 3
        or w_in.shape[:2] != (e, d)
        or w_out.shape != (e, w_in.shape[2], d)
    ):
        raise ValueError("shapes")
    k = as_int("top_k", top_k, 1)
    if k > e:
        raise ValueError("top_k must be <= E")
    scores = x @ w_router
    top = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    kept = np.take_along_axis(scores, top, axis=1)
    gates = softmax_rows(kept)
    y = np.zeros((t, d))
    for expert in range(e):
        tok, slot = np.nonzero(top == expert)
        if tok.size:
            y[tok] += gates[tok, slot, None] * position_wise_mlp(
                x[tok], w_in[expert], w_out[expert]
            )
    return y
