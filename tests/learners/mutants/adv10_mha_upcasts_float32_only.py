"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: multi_head_attention upcasts only float32: float16 inputs are computed in float16."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    out = _base.multi_head_attention(x, w_q, w_k, w_v, w_o, n_head)
    if all(np.asarray(a).dtype == np.float16 for a in (x, w_q, w_k, w_v, w_o)):
        return out.astype(np.float16)  # <- only float32 upcast: float16 keeps its precision
    return out
