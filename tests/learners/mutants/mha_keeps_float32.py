"""Mutant: multi_head_attention never casts to float64: for float32 inputs the projections and scores are computed in float32 (the output is float64 only because causal_masked_attention casts), so it is only float32-accurate. From an adversarial tester's third held-out set (mha_keeps_float32)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


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
    mismatched shapes or a bad n_head are a ValueError.
    """
    x, w_q, w_k, w_v, w_o = (np.asarray(a) for a in (x, w_q, w_k, w_v, w_o))
    if any(a.ndim != 2 or 0 in a.shape for a in (x, w_q, w_k, w_v, w_o)):
        raise ValueError("every argument must be a 2-D array with both sizes >= 1")
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
    return concat @ w_o
