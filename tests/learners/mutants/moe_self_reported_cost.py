"""Mutant: Returns (output, multiply-adds by part) as the old README said, not the output alone."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_moe = moe_layer


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    y = _correct_moe(x, w_router, experts_w_in, experts_w_out, top_k)
    t, d = y.shape
    return y, {"router": t * d * np.shape(w_router)[1], "experts": 0, "combine": 0}
