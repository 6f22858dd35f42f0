"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: multi_head_attention masks with np.finfo(float64).min: a visible score at that minimum ties with the future."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    _base.multi_head_attention(x, w_q, w_k, w_v, w_o, n_head)  # the base's checks
    x, w_q, w_k, w_v, w_o = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v, w_o))
    t, h = x.shape[0], int(n_head)
    q, k, v = ((x @ w).reshape(t, h, -1).transpose(1, 0, 2) for w in (w_q, w_k, w_v))
    s = q @ k.transpose(0, 2, 1) / math.sqrt(q.shape[-1])  # (H, T, T)
    att = softmax_rows(np.where(np.tri(t, dtype=bool), s, np.finfo(np.float64).min))  # <- not -inf
    return (att @ v).transpose(1, 0, 2).reshape(t, -1) @ w_o
