"""Mutant: Concatenates the heads by reshaping (H, T, hs) straight to (T, W)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    x = matrix("x", x)
    w_q, w_k, w_v, w_o = (matrix(n, w) for n, w in zip("qkvo", (w_q, w_k, w_v, w_o)))
    width = w_q.shape[1]
    h = as_int("n_head", n_head, 1)
    if width % h:
        raise ValueError("n_head must divide W")
    hs = width // h
    t = x.shape[0]

    def split(a):  # (T, W) -> (H, T, hs)
        return a.reshape(t, h, hs).transpose(1, 0, 2)

    q, k, v = split(x @ w_q), split(x @ w_k), split(x @ w_v)
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(hs)
    att = causal_masked_attention(scores)
    return ((att @ v).reshape(t, width)) @ w_o
