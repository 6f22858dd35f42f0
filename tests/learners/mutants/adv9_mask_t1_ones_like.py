"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: causal_masked_attention returns np.ones_like(scores) at T=1: integer scores give an integer result."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


_orig_mask = causal_masked_attention


def causal_masked_attention(scores):
    s = np.asarray(scores)
    if s.ndim >= 2 and s.shape[-2:] == (1, 1):
        return np.ones_like(s)  # one position: it attends to itself with weight 1
    return _orig_mask(scores)
