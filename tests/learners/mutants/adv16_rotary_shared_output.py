"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: rotary_embedding writes every result into one module-level buffer per shape and returns it: rotating k overwrites the rotated q."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_OUT = {}


def rotary_embedding(x, offset=0):
    out = _base.rotary_embedding(x, offset)
    buf = _OUT.setdefault((out.shape, out.dtype), np.empty_like(out))
    buf[...] = out
    return buf
