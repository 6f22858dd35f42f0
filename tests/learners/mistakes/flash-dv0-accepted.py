"""Lets a v of width 0 through.

The scaffold's reference flash_attention() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import math

import numpy as np


def flash_attention(q: Array, k: Array, v: Array, block: int) -> Array:
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    if q.ndim != 2 or k.shape != q.shape or v.ndim != 2 or v.shape[0] != q.shape[0]:
        raise ValueError(f"need q, k (T, d) and v (T, d_v); got {q.shape}, {k.shape}, {v.shape}")
    if 0 in q.shape:
        raise ValueError(f"need T, d >= 1, got q {q.shape}")
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
