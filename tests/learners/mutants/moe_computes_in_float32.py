"""Mutant: moe_layer routes and runs its experts in the inputs' own float dtype and sums into
a float64 output: for float32 weights the scores, gates and expert outputs are float32, so
the result is only float32-accurate (about 1e-7 relative). The contract: float64 results,
computed in float64. Caught by the float32 case of contract.moe-layer (issue 22)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    arrays = [np.asarray(a) for a in (x, w_router, experts_w_in, experts_w_out)]
    dtype = np.result_type(*arrays)
    if dtype.kind != "f":
        dtype = np.dtype(np.float64)
    x, w_router, w_in, w_out = (a.astype(dtype) for a in arrays)
    if x.ndim != 2 or 0 in x.shape or w_router.ndim != 2:
        raise ValueError("x must be (T, d) and w_router (d, E)")
    t, d = x.shape
    e = w_router.shape[1]
    if w_router.shape[0] != d or w_in.ndim != 3 or w_in.shape[:2] != (e, d):
        raise ValueError("bad router or expert shapes")
    if w_out.shape != (e, w_in.shape[2], d):
        raise ValueError("experts_w_out must be (E, d_ff, d)")
    k = as_int("top_k", top_k, 1)
    if k > e:
        raise ValueError("top_k must be <= E")
    scores = x @ w_router
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    kept = np.take_along_axis(scores, top, axis=1)
    gates = np.exp(kept - kept.max(axis=1, keepdims=True))
    gates = gates / gates.sum(axis=1, keepdims=True)
    y = np.zeros((t, d))
    c = dtype.type(math.sqrt(2.0 / math.pi))
    for expert in range(e):
        tok, slot = np.nonzero(top == expert)
        if tok.size:
            h = x[tok] @ w_in[expert]
            with np.errstate(over="ignore"):
                h = dtype.type(0.5) * h * (1 + np.tanh(c * (h + dtype.type(0.044715) * h**3)))
            y[tok] += gates[tok, slot, None] * (h @ w_out[expert])
    return y
