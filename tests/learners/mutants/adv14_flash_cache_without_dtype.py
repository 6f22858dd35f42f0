"""From an adversarial tester's fourteenth held-out set (a false pass, now caught): BUGGY: flash_attention keeps its results keyed by the bytes and shapes of q, k, v and the block, not their dtype: int64 inputs with a float64 call's bytes get its answer."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_KEPT = {}


def flash_attention(q, k, v, block):
    if all(isinstance(a, np.ndarray) for a in (q, k, v)):
        key = tuple((a.tobytes(), a.shape) for a in (q, k, v)) + (int(block),)
        if key not in _KEPT:
            _KEPT[key] = _base.flash_attention(q, k, v, block)
        return _KEPT[key].copy()
    return _base.flash_attention(q, k, v, block)
