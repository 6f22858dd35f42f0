"""From an adversarial tester's eighth held-out set (a false pass, now caught): BUGGY: greedy_token checks only that the logits are not empty: (2, 2) logits give a flattened index, 0-d logits give 0."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def greedy_token(logits):
    z = np.asarray(logits)
    if z.ndim != 1 and z.size:  # <- not refused: the flattened argmax
        return int(np.argmax(z))
    return _base.greedy_token(logits)
