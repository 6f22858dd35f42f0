"""Copies the query line for the keys and forgets to change w_q to w_k."""

import math

import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    x = np.asarray(x, dtype=np.float64)
    t_len = x.shape[0]
    hs = w_q.shape[1] // n_head
    q = (x @ w_q).reshape(t_len, n_head, hs).transpose(1, 0, 2)
    k = (x @ w_q).reshape(t_len, n_head, hs).transpose(1, 0, 2)
    v = (x @ w_v).reshape(t_len, n_head, hs).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(hs)
    scores[:, np.triu(np.ones((t_len, t_len), dtype=bool), k=1)] = -np.inf
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    heads = e / e.sum(axis=-1, keepdims=True) @ v
    return heads.transpose(1, 0, 2).reshape(t_len, n_head * hs) @ w_o
