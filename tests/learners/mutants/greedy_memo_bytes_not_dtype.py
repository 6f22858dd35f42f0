"""Mutant: greedy_token keeps its answers keyed by the logits' bytes and shape, not their
dtype: float64 [-1, -2], then the same bytes as int64 (where the order of negative floats
turns) gets the float call's answer (a buggy-learner round, 2026-12-08)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *

_MEMO = {}


def greedy_token(logits):
    a = np.asarray(logits)
    key = (a.tobytes(), a.shape)
    if key not in _MEMO:
        _MEMO[key] = _base.greedy_token(logits)
    return _MEMO[key]
