"""Splits the projections as (T, hs, H): head h takes every H-th column."""

import math

import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    x = np.asarray(x, dtype=np.float64)
    t_len = x.shape[0]
    hs = w_q.shape[1] // n_head
    future = np.triu(np.ones((t_len, t_len), dtype=bool), k=1)
    heads = np.zeros((t_len, hs, n_head))
    for h in range(n_head):
        q, k, v = x @ w_q[:, h::n_head], x @ w_k[:, h::n_head], x @ w_v[:, h::n_head]
        scores = np.where(future, -np.inf, q @ k.T / math.sqrt(hs))
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        heads[:, :, h] = e / e.sum(axis=-1, keepdims=True) @ v
    return heads.reshape(t_len, hs * n_head) @ w_o
