"""From an adversarial tester's nineteenth held-out set (a false pass, now caught): BUGGY: moe_layer keeps its last result keyed by x and the experts' bytes, not the router's."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_LAST = {}


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    xs = np.asarray(x)
    key = (
        xs.shape,
        xs.tobytes(),
        np.asarray(experts_w_in).tobytes(),
        np.asarray(experts_w_out).tobytes(),
        top_k,
    )
    if key in _LAST:
        return _LAST[key].copy()
    out = _base.moe_layer(x, w_router, experts_w_in, experts_w_out, top_k)
    _LAST.clear()
    _LAST[key] = out.copy()
    return out
