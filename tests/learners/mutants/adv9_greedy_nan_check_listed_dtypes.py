"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: greedy_token looks for NaN only in float16/32/64: a longdouble NaN ranks."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def greedy_token(logits):
    z = np.asarray(logits)
    if z.ndim != 1 or z.size == 0:
        raise ValueError("logits must be a non-empty vector")
    if z.dtype in (np.float16, np.float32, np.float64) and np.isnan(z).any():
        raise ValueError("a NaN logit")
    return int(np.argmax(z))
