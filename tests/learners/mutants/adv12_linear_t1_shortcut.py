"""From an adversarial tester's twelfth held-out set (a false pass, now caught): BUGGY: linear_attention returns v for T = 1 before checking q's and k's shapes."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def linear_attention(q, k, v):
    if np.shape(q)[:1] == (1,):  # <- one position: it attends to itself alone
        return np.asarray(v, dtype=np.float64)
    return _base.linear_attention(q, k, v)
