"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: moe_layer routes with router weights rounded to 1e-9, so a near-tie picks the lower expert."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    w = np.round(np.asarray(w_router, dtype=float), 9)  # <- "noise must not break ties"
    return _base.moe_layer(x, w, experts_w_in, experts_w_out, top_k)
