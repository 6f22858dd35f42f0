"""From an adversarial tester's eighteenth held-out set (a false pass, now caught): BUGGY: layer_norm caches its results by x's bytes and eps, leaving gain and bias out of the key."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_CACHE = {}


def layer_norm(x, gain, bias, eps=1e-5):
    x = np.asarray(x)
    key = (x.tobytes(), x.shape, x.dtype.str, eps)
    if key not in _CACHE:
        _CACHE[key] = _base.layer_norm(x, gain, bias, eps)
    return _CACHE[key].copy()
