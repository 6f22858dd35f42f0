"""From an adversarial tester's fourth held-out set (a false pass, now caught): BUGGY: bpe_encode returns the bytes unchanged for a text shorter than 2 bytes, before
validating the merges: bpe_encode(b'', [(300, 1)]) gives [] instead of ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def bpe_encode(data, merges):
    arr = np.asarray(data)
    if arr.size < 2:
        return arr.astype(np.int64)  # <- shortcut before the checks
    return _base.bpe_encode(data, merges)
