"""Mutant: softmax_temperature keeps its results keyed by the logits' bytes and shape, not
their dtype: float64 logits, then the same bytes as int64 (valid integer logits), get the
float call's answer. The cases called again were float32, so no int64 reading was made (a
correct-learner round, 2026-12-08)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *

_MEMO = {}


def softmax_temperature(logits, temperature):
    a = np.asarray(logits)
    key = (a.tobytes(), a.shape, repr(temperature))
    if key not in _MEMO:
        _MEMO[key] = np.array(_base.softmax_temperature(logits, temperature), copy=True)
    return _MEMO[key].copy()
