"""From an adversarial tester's fifth held-out set (a false pass, now caught): BUGGY: flash_attention checks T and d_v but not d, so q and k of shape (T, 0) end in
ZeroDivisionError (1 / sqrt(0)) instead of ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import math
import numpy as np


def flash_attention(q, k, v, block):
    q, k, v = np.asarray(q), np.asarray(k), np.asarray(v)
    if (
        q.ndim == 2
        and q.shape[1] == 0
        and k.shape == q.shape
        and v.ndim == 2
        and v.shape[0] == q.shape[0]
    ):
        scale = 1.0 / math.sqrt(q.shape[1])  # <- d = 0 is never refused
    return _base.flash_attention(q, k, v, block)
