"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: causal_masked_attention returns ones when the last axis is 1, before checking the scores are square."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def causal_masked_attention(scores):
    s = np.asarray(scores)
    if s.ndim >= 2 and s.shape[-1] == 1:
        return np.ones(s.shape)  # <- before the square check
    return _base.causal_masked_attention(scores)
