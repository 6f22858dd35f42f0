"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: flash_attention caches its results on the bytes of q, k and v, without their shapes."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


_seen = {}


def flash_attention(q, k, v, block):
    key = (np.asarray(q).tobytes(), np.asarray(k).tobytes(), np.asarray(v).tobytes(), block)
    if key not in _seen:  # <- (4, 2) and (2, 4) share their bytes
        _seen[key] = _base.flash_attention(q, k, v, block)
    return _seen[key].copy()
