"""From an adversarial tester's eighteenth held-out set (a false pass, now caught): BUGGY: position_wise_mlp caches its results by the bytes of x and w_in and the shape of w_out, not w_out's values."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_CACHE = {}


def position_wise_mlp(x, w_in, w_out):
    x, w_in, w_out = np.asarray(x), np.asarray(w_in), np.asarray(w_out)
    key = (x.tobytes(), x.shape, x.dtype.str, w_in.tobytes(), w_in.shape, w_out.shape)
    if key not in _CACHE:
        _CACHE[key] = _base.position_wise_mlp(x, w_in, w_out)
    return _CACHE[key].copy()
