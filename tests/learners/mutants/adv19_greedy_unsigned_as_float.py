"""From an adversarial tester's nineteenth held-out set (a false pass, now caught): BUGGY: greedy_token compares unsigned logits as float64: uint64 [2**53, 2**53 + 1] ties and gives 0."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def greedy_token(logits):
    z = np.asarray(logits)
    if z.dtype.kind == "u":
        z = z.astype(np.float64)
    return _base.greedy_token(z)
