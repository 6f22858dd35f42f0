"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: averaging_model computes its running mean into one module-level buffer per shape and returns it."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_OUT = {}


def averaging_model(x):
    out = _base.averaging_model(x)
    buf = _OUT.setdefault((out.shape, out.dtype), np.empty_like(out))
    buf[...] = out
    return buf
