"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: causal_masked_attention writes -inf into the caller's float64 scores for T >= 32."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def causal_masked_attention(scores):
    out = _base.causal_masked_attention(scores)
    s = scores if isinstance(scores, np.ndarray) else None
    if s is not None and s.dtype == np.float64 and s.shape[-1] >= 32:
        # <- long contexts: "mask in place rather than allocate another (..., T, T) array"
        s[..., np.triu(np.ones(s.shape[-2:], dtype=bool), k=1)] = -np.inf
    return out
