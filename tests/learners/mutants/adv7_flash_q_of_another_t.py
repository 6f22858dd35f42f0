"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: flash_attention checks that k and v share T but not that q has it: q (2, 2) with k, v of T = 3 returns (2, 1) instead of ValueError."""

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


def flash_attention(q: Array, k: Array, v: Array, block: int) -> Array:
    """q (Tq, d), k (Tk, d), v (Tk, d_v): checks widths and k/v agreement, not Tq == Tk."""
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    if q.ndim != 2 or k.ndim != 2 or v.ndim != 2:
        raise ValueError("q, k, v must be 2-D")
    if q.shape[1] != k.shape[1]:
        raise ValueError("q and k must have the same width")
    if v.shape[0] != k.shape[0]:
        raise ValueError("k and v must have the same number of positions")
    if 0 in q.shape or 0 in k.shape or 0 in v.shape:
        raise ValueError("need T, d, d_v >= 1")
    block = _integer("block", block, 1)
    t_len, d = q.shape
    t_keys = k.shape[0]
    scale = 1.0 / math.sqrt(d)
    out = np.empty((t_len, v.shape[1]))
    for i0 in range(0, t_len, block):
        i1 = min(i0 + block, t_len)
        q_tile = q[i0:i1]
        m = np.full(i1 - i0, -np.inf)
        l_sum = np.zeros(i1 - i0)
        acc = np.zeros((i1 - i0, v.shape[1]))
        for j0 in range(0, min(i1, t_keys), block):
            j1 = min(j0 + block, t_keys)
            k_tile, v_tile = k[j0:j1], v[j0:j1]
            s = q_tile @ k_tile.T * scale
            future = np.arange(j0, j1)[None, :] > np.arange(i0, i1)[:, None]
            s[future] = -np.inf
            m_new = np.maximum(m, s.max(axis=1))
            p = np.exp(s - m_new[:, None])
            rescale = np.exp(m - m_new)
            l_sum = l_sum * rescale + p.sum(axis=1)
            acc = acc * rescale[:, None] + p @ v_tile
            m = m_new
        out[i0:i1] = acc / l_sum[:, None]
    return out
