"""From an adversarial tester's twenty-second held-out set (a false pass, now caught): BUGGY: causal_masked_attention memoizes by the scores' bytes alone, without their shape: the same values in another shape get the last shape's weights."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_SEEN = {}


def causal_masked_attention(scores):
    s = np.asarray(scores)
    key = (s.dtype.str, s.tobytes())
    if key not in _SEEN:
        _SEEN[key] = _base.causal_masked_attention(s)
    return _SEEN[key].copy()
