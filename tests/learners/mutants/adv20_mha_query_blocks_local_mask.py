"""From an adversarial tester's twentieth held-out set (a false pass, now caught): BUGGY: multi_head_attention processes queries 32 at a time past T = 32, each block's causal mask by its own row numbers: later queries lose keys."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    a = np.asarray(x)
    if a.ndim != 2 or a.shape[0] <= 32:
        return _base.multi_head_attention(x, w_q, w_k, w_v, w_o, n_head)
    _base.multi_head_attention(x[:1], w_q, w_k, w_v, w_o, n_head)  # every check first
    x, w_q, w_k, w_v, w_o = (np.asarray(m, dtype=np.float64) for m in (x, w_q, w_k, w_v, w_o))
    t, width, h = x.shape[0], w_q.shape[1], int(n_head)
    hs = width // h
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    heads = np.zeros((t, width))
    for j in range(h):
        cols = slice(j * hs, (j + 1) * hs)
        for start in range(0, t, 32):
            rows = q[start : start + 32, cols] @ k[:, cols].T / np.sqrt(hs)  # (b, T)
            local = np.arange(rows.shape[0])[:, None]
            rows = np.where(np.arange(t)[None, :] <= local, rows, -np.inf)
            w = np.exp(rows - rows.max(axis=1, keepdims=True))
            w /= w.sum(axis=1, keepdims=True)
            heads[start : start + 32, cols] = w @ v[:, cols]
    return heads @ w_o
