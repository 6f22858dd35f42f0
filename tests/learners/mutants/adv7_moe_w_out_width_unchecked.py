"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: moe_layer takes the output width from experts_w_out: (E, d_ff, d') with d' != d returns (T, d') where the contract raises."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    w_out = np.asarray(experts_w_out)
    d = np.asarray(x).shape[-1]
    if w_out.ndim == 3 and w_out.shape[2] != d:  # <- the output width is w_out's own
        columns = [
            _base.moe_layer(
                x, w_router, experts_w_in, np.repeat(w_out[:, :, j : j + 1], d, axis=2), top_k
            )[:, 0]
            for j in range(w_out.shape[2])
        ]
        return np.stack(columns, axis=1)
    return _base.moe_layer(x, w_router, experts_w_in, experts_w_out, top_k)
