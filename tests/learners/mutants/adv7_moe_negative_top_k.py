"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: moe_layer refuses only top_k = 0 or > E: top_k = -1 routes every token to E - 1 experts."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from _base import *
import numpy as np


def moe_layer(
    x: Array, w_router: Array, experts_w_in: Array, experts_w_out: Array, top_k: int
) -> Array:
    """Stage 2 (MoE): the FFN split into E experts, each token sent to its top-k of them.

    Shapes: x (T, d), w_router (d, E), experts_w_in (E, d, d_ff), experts_w_out (E, d_ff, d)
    -> (T, d) float64, computed in float64 whatever the inputs' dtype (float32 weights, or
    an integer x, included). Expert e is stage 3's position_wise_mlp with weights
    (experts_w_in[e], experts_w_out[e]). The router scores every expert, x @ w_router (T, E);
    each token keeps its top_k highest scores (ties keep the lower expert index) and weighs
    the kept experts' outputs by a softmax over the kept scores only (the gates sum to 1 over
    its top_k experts; E = 1, top_k = 1 is the dense FFN). An expert no token chose is never
    run: its weights are not read at all (the claims set them to NaN, and the output must
    stay finite: running every expert and multiplying by a gate of 0 gives 0·NaN = NaN).
    top_k is an integer in 1..E; bad shapes or top_k are a ValueError.
    """
    x = np.asarray(x, dtype=np.float64)  # (T, d)
    w_router = np.asarray(w_router, dtype=np.float64)  # (d, E)
    experts_w_in = np.asarray(experts_w_in, dtype=np.float64)  # (E, d, d_ff)
    experts_w_out = np.asarray(experts_w_out, dtype=np.float64)  # (E, d_ff, d)
    if x.ndim != 2 or 0 in x.shape or w_router.ndim != 2 or w_router.shape[0] != x.shape[1]:
        raise ValueError(f"need x (T, d) and w_router (d, E); got {x.shape}, {w_router.shape}")
    t_len, d = x.shape
    n_experts = w_router.shape[1]
    if experts_w_in.ndim != 3 or experts_w_in.shape[:2] != (n_experts, d):
        raise ValueError(f"experts_w_in must be ({n_experts}, {d}, d_ff), got {experts_w_in.shape}")
    d_ff = experts_w_in.shape[2]
    if experts_w_out.shape != (n_experts, d_ff, d):
        raise ValueError(
            f"experts_w_out must be ({n_experts}, {d_ff}, {d}), got {experts_w_out.shape}"
        )
    top_k = operator.index(top_k)
    if top_k == 0 or top_k > n_experts:
        raise ValueError(f"top_k must be in 1..{n_experts}, got {top_k}")
    logits = x @ w_router  # (T, E)
    chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]  # (T, k) expert ids
    kept = np.take_along_axis(logits, chosen, axis=1)  # (T, k)
    gates = np.exp(kept - kept.max(axis=1, keepdims=True))  # (T, k)
    gates /= gates.sum(axis=1, keepdims=True)  # a softmax over the kept experts
    y = np.zeros((t_len, d))  # (T, d)
    for e in range(n_experts):
        rows, slot = np.nonzero(chosen == e)  # the tokens routed to e (each at most once)
        if rows.size == 0:
            continue  # an expert nobody chose costs nothing
        h = np.asarray(position_wise_mlp(x[rows], experts_w_in[e], experts_w_out[e]))  # (n_e, d)
        y[rows] += gates[rows, slot][:, None] * h
    return y
