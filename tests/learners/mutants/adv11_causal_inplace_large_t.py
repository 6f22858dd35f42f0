"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: causal_masked_attention writes -inf into the caller's float64 scores for T >= 32."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def causal_masked_attention(scores):
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim < 2 or s.shape[-1] != s.shape[-2] or s.shape[-1] == 0:
        raise ValueError("scores must be (..., T, T)")
    t = s.shape[-1]
    future = np.triu(np.ones((t, t), dtype=bool), k=1)
    if t >= 32:  # long contexts: mask in place rather than allocate another (..., T, T) array
        s[..., future] = -np.inf
        return softmax_rows(s)
    return softmax_rows(np.where(future, -np.inf, s))
