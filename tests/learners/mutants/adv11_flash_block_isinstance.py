"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: flash_attention checks block >= 1 for Python ints only: np.int64(-1) gives zeros."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def flash_attention(q, k, v, block):
    if isinstance(block, np.integer) and block < 1:  # <- only Python ints checked for >= 1
        q = np.asarray(q, dtype=np.float64)
        return np.zeros((q.shape[0], np.shape(v)[1]))  # no tile ran: nothing accumulated
    return _base.flash_attention(q, k, v, block)
