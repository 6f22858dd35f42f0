"""From an adversarial tester's eighteenth held-out set (a false pass, now caught): BUGGY: averaging_model writes its running mean into two buffers per shape used in turn, so the third call of a shape changes the first call's result."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_RING = {}


def averaging_model(x):
    out = _base.averaging_model(x)
    ring = _RING.setdefault((out.shape, out.dtype.str), [np.empty_like(out), np.empty_like(out), 0])
    buf = ring[ring[2]]
    ring[2] ^= 1
    buf[...] = out
    return buf
