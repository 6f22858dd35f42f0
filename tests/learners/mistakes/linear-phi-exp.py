"""phi = exp.

The scaffold's reference linear_attention() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import numpy as np


def linear_attention(q: Array, k: Array, v: Array) -> Array:
    q, k, v = _qkv(q, k, v)  # (T, d), (T, d), (T, d_v)
    t_len, d = q.shape
    d_v = v.shape[1]
    with np.errstate(over="ignore"):
        phi_q, phi_k = np.exp(q), np.exp(k)  # (T, d) each, like the inputs
    state = np.zeros((d, d_v))  # (d, d_v) S_t = Σ φ(k_s) v_sᵀ over the prefix
    norm = np.zeros(d)  # (d,) z_t = Σ φ(k_s) over the prefix
    out = np.empty((t_len, d_v))  # (T, d_v): the result
    for t in range(t_len):
        state += phi_k[t, :, None] * v[t]  # (d, d_v) outer product, accumulated
        norm += phi_k[t]
        with np.errstate(invalid="ignore"):
            out[t] = (phi_q[t] @ state) / (phi_q[t] @ norm)  # (d_v,); the denominator is > 0
    return out
