"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: flash_attention refuses only block = 0: block = -1 returns an unfilled np.empty array (range(0, T, -1) is empty)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def flash_attention(q, k, v, block):
    if isinstance(block, (int, np.integer)) and block < 0:  # <- only block == 0 is refused
        return np.empty((len(q), np.asarray(v).shape[1]))  # no tile ever fills it
    return _base.flash_attention(q, k, v, block)
