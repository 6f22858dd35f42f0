"""The running max is updated, the old sums are not rescaled."""

# ruff: noqa: F821  (_qkv, _elu_plus_one, position_wise_mlp: the scaffold's)

import math

import numpy as np


def flash_attention(q: Array, k: Array, v: Array, block: int) -> Array:
    """Stage 2 (FlashAttention): causal one-head attention, tile by tile, never (T, T).

    Shapes: q, k (T, d), v (T, d_v) -> output (T, d_v), the same function as
    softmax(mask(q kᵀ / √d)) v. Queries and keys are taken ``block`` at a time; for each query
    tile a running max m, a running sum l of exp(score − m) and a running sum of
    exp(score − m)·v are kept over the key tiles. When a new key tile raises the max, the old
    sums are rescaled by exp(m_old − m_new) first (the online softmax); dividing by l at the
    end gives exactly the softmax's weighted sum. Key tiles entirely in the future are
    skipped.
    """
    q, k, v = _qkv(q, k, v)  # (T, d), (T, d), (T, d_v)
    if isinstance(block, bool) or not isinstance(block, int | np.integer) or block < 1:
        raise ValueError(f"block must be an integer >= 1, got {block!r}")
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
            l_sum = l_sum + p.sum(axis=1)  # (Bq,)
            pv = p @ v_tile  # (Bq, d_v)
            acc = acc + pv  # (Bq, d_v)
            m = m_new
        out[i0:i1] = acc / l_sum[:, None]
    return out
