"""From an adversarial tester's fourth held-out set (a false pass, now caught): BUGGY: multi_head_attention answers T = 1 with x @ w_v @ w_o (one position attends to itself
with weight 1 in every head) before checking n_head: n_head = 0 or 3 (not dividing W) at T = 1
give an output instead of ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    xa = matrix("x", x)
    if xa.shape[0] == 1:
        w_v, w_o = matrix("w_v", w_v), matrix("w_o", w_o)
        return xa @ w_v @ w_o  # <- shortcut before checking n_head and shapes
    return _base.multi_head_attention(x, w_q, w_k, w_v, w_o, n_head)
