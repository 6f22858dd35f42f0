"""Stages 3-5: the per-position MLP, the causal mask, and multi-head attention."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from checks.registry import subject

Array = NDArray[np.float64]


def _softmax_last(z: Array) -> Array:
    # Subtracting the row max keeps exp() finite; a row of all -inf cannot occur here
    # because the diagonal is always visible.
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)  # type: ignore[no-any-return]


@subject("causal_masked_attention")
def causal_masked_attention(scores: Array) -> Array:
    """Stage 5: attention weights where row t is a softmax over positions 0..t only.

    ``scores`` has shape (..., T, T). Setting the future to -inf *deletes* it from the
    softmax's domain: exp(-inf) is an exact 0 and the visible prefix is renormalized.
    """
    scores = np.asarray(scores, dtype=np.float64)
    t_len = scores.shape[-1]
    if scores.ndim < 2 or scores.shape[-2] != t_len:
        raise ValueError(f"scores must have shape (..., T, T), got {scores.shape}")
    future = np.triu(np.ones((t_len, t_len), dtype=bool), k=1)  # (T, T), True where s > t
    return _softmax_last(np.where(future, -np.inf, scores))  # (..., T, T)


@subject("position_wise_mlp")
def position_wise_mlp(x: Array, w_in: Array, w_out: Array) -> Array:
    """Stage 3: the FFN applied to each position on its own: (T, d) -> (T, d)."""
    x = np.asarray(x, dtype=np.float64)  # (T, d)
    h = x @ w_in  # (T, d_ff)
    # GELU, tanh form (as in GPT-2); any pointwise nonlinearity keeps positions separate
    h = 0.5 * h * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * h**3)))
    return h @ w_out  # (T, d)


@subject("multi_head_attention", uses=("causal_masked_attention",))
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
    """Stage 4: one attention operator run with H sets of weights, heads concatenated.

    Shapes: x (T, d), w_q/w_k/w_v (d, H*hs), w_o (H*hs, d_out) -> (T, d_out).
    """
    x = np.asarray(x, dtype=np.float64)
    t_len, _ = x.shape
    width = w_q.shape[1]
    if n_head < 1 or width % n_head:
        raise ValueError(f"n_head={n_head} must divide the projection width {width}")
    hs = width // n_head

    def split(w: Array) -> Array:
        return (x @ w).reshape(t_len, n_head, hs).transpose(1, 0, 2)  # (H, T, hs)

    q, k, v = split(w_q), split(w_k), split(w_v)
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(hs)  # (H, T, T)
    weights = causal_masked_attention(scores)  # (H, T, T)
    heads = weights @ v  # (H, T, hs)
    concat = heads.transpose(1, 0, 2).reshape(t_len, n_head * hs)  # (T, H*hs)
    return concat @ w_o  # (T, d_out)
