"""Stages 3-5: the per-position MLP, the causal mask, and multi-head attention."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from checks.pack import subject
from checks.reference._args import _integer

Array = NDArray[np.float64]


def _softmax_last(z: Array, out: Array | None = None) -> Array:
    """The softmax over the last axis of ``z``, a new array; with ``out`` (``z`` itself, for
    a caller whose ``z`` is a temporary of its own) computed in that array's place, so a
    (T, T) call allocates no second (T, T)."""
    # Subtracting the row max keeps exp() finite; a row of all -inf cannot occur here
    # because the diagonal is always visible.
    if out is None:
        z = z - z.max(axis=-1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=-1, keepdims=True)  # type: ignore[no-any-return]
    np.subtract(z, z.max(axis=-1, keepdims=True), out=out)
    np.exp(out, out=out)
    out /= out.sum(axis=-1, keepdims=True)
    return out


def _matrix(name: str, a: object) -> Array:
    """``a`` as a float64 (rows, cols) array with both sizes >= 1, or a ValueError."""
    m = np.asarray(a, dtype=np.float64)
    if m.ndim != 2 or 0 in m.shape:
        raise ValueError(f"{name} must be a 2-D array with both sizes >= 1, got shape {m.shape}")
    return m


@subject("causal_masked_attention")
def causal_masked_attention(scores: Array) -> Array:
    """Stage 5: attention weights where row t is a softmax over positions 0..t only.

    ``scores`` has shape (..., T, T) with T >= 1 (any leading axes: heads, batch), finite
    (non-finite scores are outside the contract); anything else is a ValueError. Setting the
    future to -inf *deletes* it from the softmax's domain: exp(-inf) is an exact 0 and the
    visible prefix is renormalized. The row max is subtracted first, so scores of any finite
    magnitude (±1e4, ±1e300) give no NaN. Returns float64 of the same shape, computed in
    float64 (float32 or integer scores included). The mask is -inf, not the most negative
    float (np.finfo(np.float64).min, as masked_fill often uses): that is a finite score too,
    and a row whose visible scores sit at that minimum would then give the future weight.
    """
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim < 2 or scores.shape[-2] != scores.shape[-1] or scores.shape[-1] == 0:
        raise ValueError(f"scores must have shape (..., T, T) with T >= 1, got {scores.shape}")
    t_len = scores.shape[-1]
    positions = np.arange(t_len)
    future = positions[None, :] > positions[:, None]  # (T, T), True where s > t
    weights = np.where(future, -np.inf, scores)  # (..., T, T), a new array of our own
    return _softmax_last(weights, out=weights)


@subject("position_wise_mlp")
def position_wise_mlp(x: Array, w_in: Array, w_out: Array) -> Array:
    """Stage 3: the FFN applied to each position on its own: (T, d) -> (T, d_out).

    x (T, d), w_in (d, d_ff), w_out (d_ff, d_out), no biases: GELU(x @ w_in) @ w_out, with
    GELU in its tanh form (GPT-2's): 0.5·h·(1 + tanh(√(2/π)·(h + 0.044715·h³))). The exact
    erf GELU differs from it by up to 4.7e-4 (at h ≈ −2.7), far beyond the claims' tolerance: it,
    ReLU or no nonlinearity at all fail. Shapes that do not chain are a ValueError. The
    result is float64 whatever the inputs' dtype (float32 or integer in, float64 out,
    computed in float64).
    """
    x = _matrix("x", x)  # (T, d)
    w_in, w_out = _matrix("w_in", w_in), _matrix("w_out", w_out)  # (d, d_ff), (d_ff, d_out)
    if w_in.shape[0] != x.shape[1] or w_out.shape[0] != w_in.shape[1]:
        raise ValueError(
            f"shapes do not chain: x {x.shape}, w_in {w_in.shape}, w_out {w_out.shape}"
        )
    h = x @ w_in  # (T, d_ff)
    # GELU, tanh form (as in GPT-2); any pointwise nonlinearity keeps positions separate.
    # For |h| > 1e102 h³ overflows to ±inf and tanh gives exactly ±1: still no NaN.
    with np.errstate(over="ignore"):
        h = 0.5 * h * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * h**3)))
    return h @ w_out  # (T, d_out)


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

    Shapes: x (T, d), w_q/w_k/w_v (d, W) with W = H·hs, w_o (W, d_out) -> (T, d_out); W need
    not equal d. Head h owns columns h·hs:(h+1)·hs of w_q, w_k and w_v (the projections
    reshaped (T, W) -> (T, H, hs)), and its output fills the same columns of the (T, W)
    concatenation that w_o multiplies. Scores are q·k / √hs, hs the head's width (not d, not
    W), causally masked by causal_masked_attention. n_head is an integer >= 1 dividing W;
    mismatched shapes or a bad n_head are a ValueError. Every step runs in float64, float32
    inputs and an integer x included (the projections too, not only the mask: float32
    projections are off by about 1e-7).
    """
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
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(hs)  # (H, T, T)
    weights = np.asarray(causal_masked_attention(scores), dtype=np.float64)  # (H, T, T)
    heads = weights @ v  # (H, T, hs)
    concat = heads.transpose(1, 0, 2).reshape(t_len, n_head * hs)  # (T, H*hs)
    return concat @ w_o  # (T, d_out)
