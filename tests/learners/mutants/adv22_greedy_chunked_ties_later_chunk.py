"""From an adversarial tester's twenty-second held-out set (a false pass, now caught): BUGGY: greedy_token takes the argmax of 65,536 logits at a time and keeps a later chunk's on a tie (>=): past V = 65,536 a tie goes to the higher index."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

CHUNK = 65536


def greedy_token(logits):
    z = np.asarray(logits)
    if z.ndim != 1 or z.shape[0] <= CHUNK:
        return _base.greedy_token(logits)
    _base.greedy_token(logits)  # its checks
    best, where = -np.inf, 0
    for start in range(0, z.shape[0], CHUNK):
        part = z[start : start + CHUNK]
        i = int(np.argmax(part))
        if part[i] >= best:
            best, where = part[i], start + i
    return where
