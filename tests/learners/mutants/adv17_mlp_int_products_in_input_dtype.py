"""From an adversarial tester's seventeenth held-out set (a false pass, now caught): BUGGY: position_wise_mlp multiplies integer inputs in their own dtype: int8 x [[100, 100]] times int8 weights wraps around."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def position_wise_mlp(x, w_in, w_out):
    x, w_in, w_out = (np.asarray(a) for a in (x, w_in, w_out))
    if x.dtype.kind in "iu" and w_in.dtype.kind in "iu":
        h = (x @ w_in).astype(np.float64)  # the product in the inputs' integer dtype
        return _base.position_wise_mlp(h, np.eye(h.shape[1]), w_out)
    return _base.position_wise_mlp(x, w_in, w_out)
