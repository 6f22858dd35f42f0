"""Runs every expert on every token (and checks its arguments as the reference does).

The scaffold's reference moe_layer() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import numpy as np


def moe_layer(
    x: Array,
    w_router: Array,
    experts_w_in: Array,
    experts_w_out: Array,
    top_k: int,
    *,
    position_wise_mlp: Callable[[Array, Array, Array], Array] = position_wise_mlp,
) -> Array:
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
    top_k = _integer("top_k", top_k, 1)
    if top_k > n_experts:
        raise ValueError(f"top_k must be in 1..{n_experts}, got {top_k}")
    logits = x @ w_router  # (T, E)
    chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]  # (T, k) expert ids
    kept = np.take_along_axis(logits, chosen, axis=1)  # (T, k)
    gates = np.exp(kept - kept.max(axis=1, keepdims=True))  # (T, k)
    gates /= gates.sum(axis=1, keepdims=True)  # a softmax over the kept experts
    dense = np.zeros((t_len, n_experts))  # (T, E), 0 for every expert not chosen
    np.put_along_axis(dense, chosen, gates, axis=1)
    y = np.zeros((t_len, d))  # (T, d)
    for e in range(n_experts):
        y += dense[:, e : e + 1] * position_wise_mlp(x, experts_w_in[e], experts_w_out[e])
    return y
