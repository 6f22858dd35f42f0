"""Mutant: multi_head_attention at T = 1 returns x W_V W_O (every head's only weight is 1)
computed on the inputs as given: float32 x and weights give a float32 result, where the
contract says every step in float64. Every T = 1 case was float64 (a buggy-learner round,
2026-12-07)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    out = _base.multi_head_attention(x, w_q, w_k, w_v, w_o, n_head)  # checked as ever
    if np.shape(x)[0] == 1:
        return np.asarray(x) @ np.asarray(w_v) @ np.asarray(w_o)
    return out
