"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: moe_layer routes with np.argpartition when E > 32: tied scores no longer keep the lower expert."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    if np.shape(w_router)[-1] > 32:  # <- np.argpartition: ties keep no particular expert
        flip = slice(None, None, -1)  # here the higher index, as argpartition may
        return _base.moe_layer(
            x,
            np.asarray(w_router)[:, flip],
            np.asarray(experts_w_in)[flip],
            np.asarray(experts_w_out)[flip],
            top_k,
        )
    return _base.moe_layer(x, w_router, experts_w_in, experts_w_out, top_k)
