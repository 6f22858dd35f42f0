"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: multi_head_attention works in np.result_type(x, float64), so long double x stays long double."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    out = _base.multi_head_attention(x, w_q, w_k, w_v, w_o, n_head)
    return out.astype(np.result_type(np.asarray(x).dtype, np.float64))  # <- long double kept
