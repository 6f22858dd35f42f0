"""From an adversarial tester's nineteenth held-out set (a false pass, now caught): BUGGY: rotary_embedding continues from the last explicit offset when offset is left out (a streaming position counter)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_NEXT = [0]


def rotary_embedding(x, offset=None):
    if offset is None:
        offset = _NEXT[0]
    out = _base.rotary_embedding(x, offset)
    if offset:
        _NEXT[0] = offset + np.shape(x)[0]
    return out
