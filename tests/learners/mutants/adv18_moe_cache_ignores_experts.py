"""From an adversarial tester's eighteenth held-out set (a false pass, now caught): BUGGY: moe_layer caches its results by the bytes of x and the router and the experts' shapes, not the experts' weights."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_CACHE = {}


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    x, w_router = np.asarray(x), np.asarray(w_router)
    key = (
        x.tobytes(),
        x.shape,
        x.dtype.str,
        w_router.tobytes(),
        w_router.shape,
        np.shape(experts_w_in),
        np.shape(experts_w_out),
        top_k,
    )
    if key not in _CACHE:
        _CACHE[key] = _base.moe_layer(x, w_router, experts_w_in, experts_w_out, top_k)
    return _CACHE[key].copy()
