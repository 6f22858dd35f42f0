"""Sums phi(k) v over the whole sequence, as the formula is usually printed."""

# ruff: noqa: F821  (_qkv, _elu_plus_one, position_wise_mlp: the scaffold's)

import numpy as np


def linear_attention(q: Array, k: Array, v: Array) -> Array:
    """Stage 2 (linear attention): causal kernelized attention in O(T·d·d_v).

    Shapes: q, k (T, d), v (T, d_v) -> output (T, d_v). The softmax kernel exp(q·k) is
    replaced by φ(q)·φ(k) with φ(x) = elu(x) + 1, so the weighted sum factorizes:
    out_t = φ(q_t)ᵀ S_t / φ(q_t)ᵀ z_t with running sums S_t = Σ_{s≤t} φ(k_s) v_sᵀ (d, d_v) and
    z_t = Σ_{s≤t} φ(k_s) (d,). One pass over t; the largest arrays are φ(q), φ(k), (T, d) like
    the inputs, and there is no (T, T) array and no per-pair softmax: the exact pairwise
    interaction is what is given up.
    """
    q, k, v = _qkv(q, k, v)  # (T, d), (T, d), (T, d_v)
    t_len, d = q.shape
    d_v = v.shape[1]
    phi_q, phi_k = _elu_plus_one(q), _elu_plus_one(k)  # (T, d) each, like the inputs
    state = np.zeros((d, d_v))  # (d, d_v) S_t = Σ φ(k_s) v_sᵀ over the prefix
    norm = np.zeros(d)  # (d,) z_t = Σ φ(k_s) over the prefix
    out = np.empty((t_len, d_v))  # (T, d_v): the result
    state = phi_k.T @ v  # (d, d_v) over every position
    norm = phi_k.sum(axis=0)
    for t in range(t_len):
        out[t] = (phi_q[t] @ state) / (phi_q[t] @ norm)  # (d_v,); the denominator is > 0
    return out
