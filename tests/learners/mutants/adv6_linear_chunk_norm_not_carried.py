"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: linear_attention works in chunks of 64 positions and carries S but not the normalizer z across chunks: rows from 64 on are wrong (T = 100: off by 11)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from _base import *
import numpy as np


def _qkv(q: Array, k: Array, v: Array) -> tuple[Array, Array, Array]:
    """q, k (T, d) and v (T, d_v) as float64, or a ValueError saying which shape is wrong."""
    q = np.asarray(q, dtype=np.float64)  # (T, d)
    k = np.asarray(k, dtype=np.float64)  # (T, d)
    v = np.asarray(v, dtype=np.float64)  # (T, d_v)
    if q.ndim != 2 or k.shape != q.shape or v.ndim != 2 or v.shape[0] != q.shape[0]:
        raise ValueError(f"need q, k (T, d) and v (T, d_v); got {q.shape}, {k.shape}, {v.shape}")
    if 0 in q.shape or 0 in v.shape:
        raise ValueError(f"need T, d, d_v >= 1, got q {q.shape} and v {v.shape}")
    return q, k, v


def _elu_plus_one(x: Array) -> Array:
    """φ(x) = elu(x) + 1: x + 1 for x > 0, exp(x) otherwise; positive, so sums never cancel."""
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def linear_attention(q: Array, k: Array, v: Array) -> Array:
    """Stage 2 (linear attention): causal kernelized attention in O(T·d·d_v).

    Shapes: q, k (T, d), v (T, d_v) -> (T, d_v) float64, computed in float64 whatever the
    inputs' dtype (float32 or integer included). The softmax kernel exp(q·k) is
    replaced by φ(q)·φ(k) with φ(x) = elu(x) + 1 (x + 1 for x > 0, eˣ otherwise), so the
    weighted sum factorizes: out_t = φ(q_t)ᵀ S_t / φ(q_t)ᵀ z_t with running sums
    S_t = Σ_{s≤t} φ(k_s) v_sᵀ (d, d_v) and z_t = Σ_{s≤t} φ(k_s) (d,). No scale on q or k.
    One pass over t; there is no (T, T) array and no per-pair softmax: the exact pairwise
    interaction is what is given up. Bad shapes are a ValueError. The claims measure the
    call's peak memory as for flash_attention: any form that never holds a (T, T) array
    passes (the recurrence, z folded into S, cumulative sums); the quadratic parallel form
    (φ(Q)φ(K)ᵀ masked, times V) computes the same function and fails them.

    Its domain: finite q and k whose entries are >= −300. Further below, φ = eˣ underflows
    (e^−745 is 0 in float64) and φ(q_t)ᵀ z_t can be 0/0, in this reference too; such inputs
    are outside the contract, and no claim passes them. Large positive entries are fine.
    """
    q, k, v = _qkv(q, k, v)  # (T, d), (T, d), (T, d_v)
    t_len, d = q.shape
    d_v = v.shape[1]
    phi_q, phi_k = _elu_plus_one(q), _elu_plus_one(k)  # (T, d) each, like the inputs
    state = np.zeros((d, d_v))  # (d, d_v) S_t = Σ φ(k_s) v_sᵀ over the prefix
    norm = np.zeros(d)  # (d,) z_t = Σ φ(k_s) over the prefix
    out = np.empty((t_len, d_v))  # (T, d_v): the result
    # The recurrence, a chunk of positions at a time: within a chunk the running sums are
    # cumulative sums (one NumPy call each, not one Python step per t), and only the
    # chunk's (C, d, d_v) sums exist at once, so the memory stays linear in T. A chunk holds
    # at most 64 positions and 65,536 values (one position's sums when d·d_v is larger).
    chunk = max(1, min(64, 65_536 // (d * d_v)))
    for c0 in range(0, t_len, chunk):
        c1 = min(c0 + chunk, t_len)
        outer = phi_k[c0:c1, :, None] * v[c0:c1, None, :]  # (C, d, d_v) φ(k_s) v_sᵀ
        sums = state + np.cumsum(outer, axis=0)  # (C, d, d_v) S_t for t in the chunk
        norms = np.cumsum(phi_k[c0:c1], axis=0)  # (C, d) z_t
        q_c = phi_q[c0:c1, None, :]  # (C, 1, d)
        numerator = (q_c @ sums)[:, 0, :]  # (C, d_v) φ(q_t)ᵀ S_t
        out[c0:c1] = numerator / (q_c @ norms[:, :, None])[:, 0, :]  # the denominator is > 0
        state, norm = sums[-1], norms[-1]
    return out
