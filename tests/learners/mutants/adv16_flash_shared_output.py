"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: flash_attention writes every result into one module-level buffer per shape and returns it: the caller's earlier result changes with the next call of that shape."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_OUT = {}


def flash_attention(q, k, v, block):
    out = _base.flash_attention(q, k, v, block)
    buf = _OUT.setdefault((out.shape, out.dtype), np.empty_like(out))
    buf[...] = out
    return buf
