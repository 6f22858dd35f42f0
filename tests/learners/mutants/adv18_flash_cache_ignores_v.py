"""From an adversarial tester's eighteenth held-out set (a false pass, now caught): BUGGY: flash_attention keeps its results in a cache keyed by q's and k's bytes and v's shape, not v's values: a second call with other values of v gets the first call's output."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_CACHE = {}


def flash_attention(q, k, v, block):
    q, k, v = np.asarray(q), np.asarray(k), np.asarray(v)
    key = (
        q.tobytes(),
        q.shape,
        q.dtype.str,
        k.tobytes(),
        k.shape,
        k.dtype.str,
        v.shape,
        v.dtype.str,
        block,
    )
    if key not in _CACHE:
        _CACHE[key] = _base.flash_attention(q, k, v, block)
    return _CACHE[key].copy()
