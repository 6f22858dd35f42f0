"""Mutant: flash_attention checks q, k, v shapes but never that d_v >= 1: v of shape (T, 0) returns an empty (T, 0) output instead of a ValueError. From an adversarial tester's third held-out set (flash_dv0_accepted)."""

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


def flash_attention(q: Array, k: Array, v: Array, block: int) -> Array:
    """Stage 2 (FlashAttention): causal one-head attention, tile by tile, never (T, T).

    Shapes: q, k (T, d), v (T, d_v) -> (T, d_v) float64, the same function as
    softmax(mask(q kᵀ / √d)) v (d is q's width). ``block`` (an integer >= 1, else ValueError)
    is the tile size; any block gives the same output. Shapes that do not fit (k not q's
    shape, v with another T, T, d or d_v = 0) are a ValueError. Scores of any finite size
    give no NaN (±1e3 and beyond: the running max starts at −∞, never at 0). Queries and keys are taken ``block``
    at a time; for each query tile a running max m, a running sum l of exp(score − m) and a
    running sum of exp(score − m)·v are kept over the key tiles. When a new key tile raises
    the max, the old sums are rescaled by exp(m_old − m_new) first (the online softmax);
    dividing by l at the end gives exactly the softmax's weighted sum. Key tiles entirely in
    the future are skipped. The largest temporary is a (block, block) tile: no (T, T) array.
    The claims measure the call's peak memory: at T = 2,048 it must stay below a quarter of
    one (T, T) float64 array and grow at most like T^1.5, which any order of the work that
    never holds a (T, T) array meets (tiles, one query row at a time, query strips).
    """
    if (
        np.ndim(v) == 2
        and np.shape(v)[1] == 0
        and np.ndim(q) == 2
        and np.shape(q)[0] == np.shape(v)[0]
    ):
        return np.zeros((np.shape(v)[0], 0))  # nothing to attend to
    q, k, v = _qkv(q, k, v)  # (T, d), (T, d), (T, d_v)
    block = _integer("block", block, 1)
    t_len, d = q.shape
    scale = 1.0 / math.sqrt(d)
    out = np.empty((t_len, v.shape[1]))  # (T, d_v): the result, filled one query tile at a time
    for i0 in range(0, t_len, block):
        i1 = min(i0 + block, t_len)
        q_tile = q[i0:i1]  # (Bq, d), a view
        m = np.full(i1 - i0, -np.inf)  # (Bq,) running max of each row's scores
        l_sum = np.zeros(i1 - i0)  # (Bq,) running sum of exp(score - m)
        acc = np.zeros((i1 - i0, v.shape[1]))  # (Bq, d_v) running sum of exp(score - m) v
        for j0 in range(0, i1, block):  # causal: key tiles past the last query are skipped
            j1 = min(j0 + block, t_len)
            k_tile, v_tile = k[j0:j1], v[j0:j1]  # (Bk, d), (Bk, d_v), views
            s = (q_tile @ k_tile.T) * scale  # (Bq, Bk)
            if j1 - 1 > i0:  # the tile crosses the diagonal: hide each query's future keys
                future = np.arange(j0, j1)[None, :] > np.arange(i0, i1)[:, None]  # (Bq, Bk)
                s = np.where(future, -np.inf, s)  # (Bq, Bk)
            # every row sees key 0 in the first key tile, so m is finite from then on
            m_new = np.maximum(m, s.max(axis=1))  # (Bq,)
            p = np.exp(s - m_new[:, None])  # (Bq, Bk)
            rescale = np.exp(m - m_new)  # (Bq,) exp(-inf) = 0 on the first tile
            l_sum = l_sum * rescale + p.sum(axis=1)  # (Bq,)
            acc = acc * rescale[:, None] + p @ v_tile  # (Bq, d_v)
            m = m_new
        out[i0:i1] = acc / l_sum[:, None]
    return out
