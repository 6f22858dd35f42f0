"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: multi_head_attention masks with np.finfo(float64).min: a visible score at that minimum ties with the future."""

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
    q = (x @ w_q).reshape(t, h, hs).transpose(1, 0, 2)
    k = (x @ w_k).reshape(t, h, hs).transpose(1, 0, 2)
    v = (x @ w_v).reshape(t, h, hs).transpose(1, 0, 2)
    s = q @ k.transpose(0, 2, 1) / math.sqrt(hs)
    s = np.where(np.tril(np.ones((t, t), dtype=bool)), s, np.finfo(np.float64).min)
    att = softmax_rows(s)
    return (att @ v).transpose(1, 0, 2).reshape(t, width) @ w_o
