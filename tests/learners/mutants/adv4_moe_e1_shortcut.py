"""From an adversarial tester's fourth held-out set (a false pass, now caught): BUGGY: moe_layer with one expert returns the dense FFN at once ("E = 1 is the dense FFN"),
before checking top_k: moe_layer(x, w_router (d, 1), ..., top_k=0 or 2) gives an output
instead of ValueError (the contract: "ValueError for a bad top_k")."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    w_in = np.asarray(experts_w_in, dtype=np.float64)
    w_out = np.asarray(experts_w_out, dtype=np.float64)
    if np.asarray(w_router).ndim == 2 and np.asarray(w_router).shape[1] == 1 and w_in.ndim == 3:
        return position_wise_mlp(x, w_in[0], w_out[0])  # <- shortcut before checking top_k
    return _base.moe_layer(x, w_router, experts_w_in, experts_w_out, top_k)
