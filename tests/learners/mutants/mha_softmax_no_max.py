"""Mutant: Each head's causal softmax as exp(scores) times a lower-triangular mask, no max
subtracted: scores past 709 overflow (x = [[40, 0], [40, 0]]). From an adversarial
tester's held-out set (n_mha_softmax_no_max)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    x = matrix("x", x)
    t = x.shape[0]
    W = np.shape(w_q)[1]
    if (
        np.shape(w_q)[0] != x.shape[1]
        or np.shape(w_k) != np.shape(w_q)
        or np.shape(w_v) != np.shape(w_q)
    ):
        raise ValueError("w_q, w_k, w_v must be (d, W)")
    if np.shape(w_o)[0] != W:
        raise ValueError("w_o")
    n_head = as_int("n_head", n_head, 1)
    if W % n_head:
        raise ValueError("n_head")
    hs = W // n_head
    outs = []
    for h in range(n_head):
        c = slice(h * hs, (h + 1) * hs)
        q, k, v = x @ w_q[:, c], x @ w_k[:, c], x @ w_v[:, c]
        e = np.exp(q @ k.T / math.sqrt(hs)) * np.tril(np.ones((t, t)))  # no max: overflows past 709
        outs.append((e / e.sum(axis=1, keepdims=True)) @ v)
    return np.concatenate(outs, axis=1) @ w_o
