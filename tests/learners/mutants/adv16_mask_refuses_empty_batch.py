"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: causal_masked_attention refuses any empty array: a batch of zero (3, 3) matrices is an error instead of an empty result."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def causal_masked_attention(scores):
    if np.asarray(scores).size == 0:
        raise ValueError("scores must not be empty")
    return _base.causal_masked_attention(scores)
