"""Divides the scores by the whole width's square root.

The scaffold's reference multi_head_attention() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import math

import numpy as np


def multi_head_attention(
    x: Array,
    w_q: Array,
    w_k: Array,
    w_v: Array,
    w_o: Array,
    n_head: int,
    *,
    causal_masked_attention: Callable[[Array], Array] = causal_masked_attention,
) -> Array:
    x = _matrix("x", x)  # (T, d)
    w_q, w_k, w_v = _matrix("w_q", w_q), _matrix("w_k", w_k), _matrix("w_v", w_v)
    w_o = _matrix("w_o", w_o)  # (W, d_out)
    t_len, d = x.shape
    width = w_q.shape[1]
    if w_q.shape[0] != d or w_k.shape != w_q.shape or w_v.shape != w_q.shape:
        raise ValueError(
            f"w_q, w_k, w_v must all be ({d}, W), got {w_q.shape}, {w_k.shape}, {w_v.shape}"
        )
    if w_o.shape[0] != width:
        raise ValueError(f"w_o must have {width} rows, got shape {w_o.shape}")
    n_head = _integer("n_head", n_head, 1)
    if width % n_head:
        raise ValueError(f"n_head={n_head} must divide the projection width {width}")
    hs = width // n_head

    def split(w: Array) -> Array:
        return (x @ w).reshape(t_len, n_head, hs).transpose(1, 0, 2)  # (H, T, hs)

    q, k, v = split(w_q), split(w_k), split(w_v)
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(width)  # (H, T, T)
    weights = np.asarray(causal_masked_attention(scores), dtype=np.float64)  # (H, T, T)
    heads = weights @ v  # (H, T, hs)
    concat = heads.transpose(1, 0, 2).reshape(t_len, n_head * hs)  # (T, H*hs)
    return concat @ w_o  # (T, d_out)
