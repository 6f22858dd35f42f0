"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: moe_layer never checks experts_w_out's expert count: (E + 1, d_ff, d) is accepted."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    n_experts = np.asarray(w_router).shape[-1]
    return _base.moe_layer(x, w_router, experts_w_in, np.asarray(experts_w_out)[:n_experts], top_k)
