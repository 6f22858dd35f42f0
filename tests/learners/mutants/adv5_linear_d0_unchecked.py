"""From an adversarial tester's fifth held-out set (caught by the new cases): BUGGY: linear_attention returns zeros for q and k of shape (T, 0) (an empty feature map)
instead of ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def linear_attention(q, k, v):
    q, k, v = np.asarray(q), np.asarray(k), np.asarray(v)
    if q.ndim == 2 and q.shape[0] >= 1 and q.shape[1] == 0 and k.shape == q.shape and v.ndim == 2:
        return np.zeros((q.shape[0], v.shape[1]))  # <- d = 0 is never refused
    return _base.linear_attention(q, k, v)
