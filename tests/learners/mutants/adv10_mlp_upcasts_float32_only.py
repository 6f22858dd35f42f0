"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: position_wise_mlp upcasts only float32: float16 x and weights are computed in float16."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# position_wise_mlp upcasts only float32 ('float32 is the low precision one'): float16 inputs are computed in float16
def _up(a):
    a = np.asarray(a)
    return a.astype(np.float64) if a.dtype == np.float32 else a


def position_wise_mlp(x, w_in, w_out):
    x, w_in, w_out = _up(x), _up(w_in), _up(w_out)
    for name, a in (("x", x), ("w_in", w_in), ("w_out", w_out)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be a non-empty 2-D array")
    if x.shape[1] != w_in.shape[0] or w_in.shape[1] != w_out.shape[0]:
        raise ValueError("shapes do not chain")
    return gelu(x @ w_in) @ w_out
