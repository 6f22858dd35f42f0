"""From an adversarial tester's fourth held-out set (a false pass, now caught): BUGGY: rotary_embedding returns an empty x at once, before checking hs and offset:
rotary_embedding(np.zeros((0, 5))) or (np.zeros((0, 4)), -1) give (0, hs) instead of ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def rotary_embedding(x, offset=0):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 2 and x.shape[0] == 0:
        return x.copy()  # <- shortcut before the checks
    return _base.rotary_embedding(x, offset)
