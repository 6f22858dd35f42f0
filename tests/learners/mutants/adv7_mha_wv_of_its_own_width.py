"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: multi_head_attention lets w_v have a width of its own and checks w_o against it: w_q, w_k (4, 4) with w_v (4, 2) return (T, d_out) where the contract raises."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from _base import *
import numpy as np


def _integer(name: str, value: object, minimum: int) -> int:
    """``value`` as a Python int >= ``minimum``, or a ValueError naming the argument."""
    # bool is an int to Python, and np.bool_ was once an index: neither is a size
    if isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be an integer, got the boolean {value!r}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{name} must be an integer, got {value!r}") from None
    if number < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {number}")
    return number


def _matrix(name: str, a: object) -> Array:
    """``a`` as a float64 (rows, cols) array with both sizes >= 1, or a ValueError."""
    m = np.asarray(a, dtype=np.float64)
    if m.ndim != 2 or 0 in m.shape:
        raise ValueError(f"{name} must be a 2-D array with both sizes >= 1, got shape {m.shape}")
    return m


def multi_head_attention(
    x: Array, w_q: Array, w_k: Array, w_v: Array, w_o: Array, n_head: int
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
    if w_q.shape[0] != d or w_k.shape != w_q.shape or w_v.shape[0] != d:
        raise ValueError(
            f"w_q, w_k, w_v must all be ({d}, W), got {w_q.shape}, {w_k.shape}, {w_v.shape}"
        )
    width_v = w_v.shape[1]  # values may be narrower or wider than queries and keys
    if w_o.shape[0] != width_v:
        raise ValueError(f"w_o must have {width} rows, got shape {w_o.shape}")
    n_head = _integer("n_head", n_head, 1)
    if width % n_head or width_v % n_head:
        raise ValueError(f"n_head={n_head} must divide the projection width {width}")
    hs = width // n_head

    def split(w: Array) -> Array:
        return (x @ w).reshape(t_len, n_head, w.shape[1] // n_head).transpose(1, 0, 2)

    q, k, v = split(w_q), split(w_k), split(w_v)
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(hs)  # (H, T, T)
    weights = np.asarray(causal_masked_attention(scores), dtype=np.float64)  # (H, T, T)
    heads = weights @ v  # (H, T, hs)
    concat = heads.transpose(1, 0, 2).reshape(t_len, width_v)  # (T, H*hs)
    return concat @ w_o
