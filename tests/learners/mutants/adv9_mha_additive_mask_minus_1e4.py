"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: multi_head_attention adds a BERT-style -1e4 mask: scores of 1e4 see the future."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    x = matrix("x", x)
    w_q, w_k, w_v, w_o = (matrix(n, w) for n, w in zip("qkvo", (w_q, w_k, w_v, w_o)))
    if w_q.shape[0] != x.shape[1] or w_k.shape != w_q.shape or w_v.shape != w_q.shape:
        raise ValueError("w_q, w_k, w_v must be (d, W)")
    width = w_q.shape[1]
    if w_o.shape[0] != width:
        raise ValueError("w_o must be (W, d_out)")
    h = as_int("n_head", n_head, 1)
    if width % h:
        raise ValueError("n_head must divide W")
    hs = width // h
    t = x.shape[0]
    outs = []
    for i in range(h):
        sl = slice(i * hs, (i + 1) * hs)
        q, k, v = x @ w_q[:, sl], x @ w_k[:, sl], x @ w_v[:, sl]
        s = q @ k.T / math.sqrt(hs)
        s = s + np.triu(np.full((t, t), -1e4), 1)
        outs.append(softmax_rows(s) @ v)
    return np.concatenate(outs, axis=1) @ w_o
