"""Mutant: layer_norm keeps its results keyed by the arguments' bytes and shapes but not
their dtypes: float64 x, then the same bytes as int64 x (a valid integer input), gets the
float call's answer (a buggy-learner round, 2026-12-08)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *

_MEMO = {}


def layer_norm(x, gain, bias, eps=1e-5):
    parts = [np.asarray(a) for a in (x, gain, bias)]
    key = tuple((a.tobytes(), a.shape) for a in parts) + (repr(eps),)
    if key not in _MEMO:
        _MEMO[key] = _base.layer_norm(x, gain, bias, eps)
    return _MEMO[key].copy()
