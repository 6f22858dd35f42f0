"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: moe_layer refuses only top_k = 0 or > E: top_k = -1 routes every token to E - 1 experts."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    if isinstance(top_k, (int, np.integer)) and top_k < 0:  # <- only 0 and > E are refused
        top_k = np.asarray(w_router).shape[1] + top_k
    return _base.moe_layer(x, w_router, experts_w_in, experts_w_out, top_k)
