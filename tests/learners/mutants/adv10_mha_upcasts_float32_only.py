"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: multi_head_attention upcasts only float32: float16 inputs are computed in float16."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# multi_head_attention upcasts only float32 inputs: float16 x and weights are projected and softmaxed in float16
_mha_base = multi_head_attention


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    arrs = [np.asarray(a) for a in (x, w_q, w_k, w_v, w_o)]
    if not all(a.dtype == np.float16 for a in arrs):
        return _mha_base(x, w_q, w_k, w_v, w_o, n_head)
    x, w_q, w_k, w_v, w_o = arrs
    h = as_int("n_head", n_head, 1)
    width = w_q.shape[1]
    if (
        x.ndim != 2
        or w_q.shape[0] != x.shape[1]
        or w_k.shape != w_q.shape
        or w_v.shape != w_q.shape
        or w_o.shape[0] != width
        or width % h
    ):
        raise ValueError("shapes")
    hs = width // h
    t = x.shape[0]
    q = (x @ w_q).reshape(t, h, hs).transpose(1, 0, 2)
    k = (x @ w_k).reshape(t, h, hs).transpose(1, 0, 2)
    v = (x @ w_v).reshape(t, h, hs).transpose(1, 0, 2)
    s = q @ k.transpose(0, 2, 1) / np.float16(math.sqrt(hs))
    s = np.where(np.tril(np.ones((t, t), dtype=bool)), s, -np.inf)
    att = softmax_rows(s)
    return (att @ v).transpose(1, 0, 2).reshape(t, width) @ w_o
