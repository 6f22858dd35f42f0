"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: moe_layer works in np.result_type(x, float64), so long double x stays long double."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    out = _base.moe_layer(x, w_router, experts_w_in, experts_w_out, top_k)
    return out.astype(np.result_type(np.asarray(x).dtype, np.float64))  # <- long double kept
