"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: linear_attention writes every result into one module-level buffer per shape and returns it."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_OUT = {}


def linear_attention(q, k, v):
    out = _base.linear_attention(q, k, v)
    buf = _OUT.setdefault((out.shape, out.dtype), np.empty_like(out))
    buf[...] = out
    return buf
