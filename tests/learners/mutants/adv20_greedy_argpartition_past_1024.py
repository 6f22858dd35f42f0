"""From an adversarial tester's twentieth held-out set (a false pass, now caught): BUGGY: greedy_token uses np.argpartition past V = 1,024, which returns any of the tied maxima, not the lowest."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def greedy_token(logits):
    z = np.asarray(logits)
    if z.ndim == 1 and z.size > 1024 and z.dtype == np.float64 and np.all(np.isfinite(z)):
        return int(np.argpartition(-z, 0)[0])
    return _base.greedy_token(logits)
