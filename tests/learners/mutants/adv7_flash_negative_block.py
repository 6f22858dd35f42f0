"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: flash_attention refuses only block = 0: block = -1 returns an unfilled np.empty array (range(0, T, -1) is empty)."""

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


def flash_attention(q: Array, k: Array, v: Array, block: int) -> Array:
    """Stage 2 (FlashAttention): causal one-head attention, tile by tile, never (T, T).

    Shapes: q, k (T, d), v (T, d_v) -> (T, d_v) float64, the same function as
    softmax(mask(q kᵀ / √d)) v (d is q's width), computed in float64 whatever the inputs'
    dtype (float32 or integer q, k, v included: float32 arithmetic is off by about 1e-7).
    ``block`` (an integer >= 1, else ValueError) is the tile size; any block gives the same
    output. Shapes that do not fit (k not q's shape, v with another T, T, d or d_v = 0) are
    a ValueError. Scores of any finite size
    give no NaN (±1e3 and beyond: the running max starts at −∞, never at 0), and the future
    is masked with −∞, not the most negative float: scores at np.finfo(np.float64).min are
    finite and must still give the future weight 0. Queries and keys are taken ``block``
    at a time; for each query tile a running max m, a running sum l of exp(score − m) and a
    running sum of exp(score − m)·v are kept over the key tiles. When a new key tile raises
    the max, the old sums are rescaled by exp(m_old − m_new) first (the online softmax);
    dividing by l at the end gives exactly the softmax's weighted sum. Key tiles entirely in
    the future are skipped. The largest temporary is a (block, block) tile: no (T, T) array.
    The claims measure the call's peak memory: at T = 2,048 it must stay below a quarter of
    one (T, T) float64 array and grow at most like T^1.5, which any order of the work that
    never holds a (T, T) array meets (tiles, one query row at a time, query strips).
    """
    q, k, v = _qkv(q, k, v)  # (T, d), (T, d), (T, d_v)
    block = operator.index(block)
    if block == 0:
        raise ValueError("block must be >= 1")
    t_len, d = q.shape
    scale = 1.0 / math.sqrt(d)
    out = np.empty((t_len, v.shape[1]))  # (T, d_v): the result, filled one query tile at a time
    # Each tile's arithmetic is done in place where it can be: the fewer temporaries, the
    # cheaper a call whose peak memory is measured (every allocation is traced).
    for i0 in range(0, t_len, block):
        i1 = min(i0 + block, t_len)
        q_tile = q[i0:i1]  # (Bq, d), a view
        m = np.full(i1 - i0, -np.inf)  # (Bq,) running max of each row's scores
        l_sum = np.zeros(i1 - i0)  # (Bq,) running sum of exp(score - m)
        acc = np.zeros((i1 - i0, v.shape[1]))  # (Bq, d_v) running sum of exp(score - m) v
        for j0 in range(0, i1, block):  # causal: key tiles past the last query are skipped
            j1 = min(j0 + block, t_len)
            k_tile, v_tile = k[j0:j1], v[j0:j1]  # (Bk, d), (Bk, d_v), views
            s = q_tile @ k_tile.T  # (Bq, Bk)
            s *= scale
            if j1 - 1 > i0:  # the tile crosses the diagonal: hide each query's future keys
                future = np.arange(j0, j1)[None, :] > np.arange(i0, i1)[:, None]  # (Bq, Bk)
                s[future] = -np.inf
            # every row sees key 0 in the first key tile, so m is finite from then on
            m_new = np.maximum(m, s.max(axis=1))  # (Bq,)
            s -= m_new[:, None]
            p = np.exp(s, out=s)  # (Bq, Bk) exp(score - m_new), in the scores' place
            rescale = np.exp(m - m_new)  # (Bq,) exp(-inf) = 0 on the first tile
            l_sum *= rescale
            l_sum += p.sum(axis=1)  # (Bq,)
            acc *= rescale[:, None]
            acc += p @ v_tile  # (Bq, d_v)
            m = m_new
        out[i0:i1] = acc / l_sum[:, None]
    return out
