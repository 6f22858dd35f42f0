"""From an adversarial tester's seventeenth held-out set (a false pass, now caught): BUGGY: rotary_embedding rotates the last axis of any array: an x of shape (2, 3, 4) (heads first) is accepted where the contract takes (T, hs) only."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def rotary_embedding(x, offset=0):
    x = np.asarray(x)
    if x.ndim == 3:
        return np.stack([_base.rotary_embedding(h, offset) for h in x])
    return _base.rotary_embedding(x, offset)
