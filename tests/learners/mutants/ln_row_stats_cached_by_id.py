"""Mutant: layer_norm keeps each row's mean and standard deviation under the id() of x, and
holds x: reversing each row in place keeps those, so a call on the same arrays with each
row reversed passed; rows that change their values get the old statistics (an attack
round, 2026-12-08)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *

_STATS = {}


def layer_norm(x, gain, bias, eps=1e-5):
    out = _base.layer_norm(x, gain, bias, eps)  # checks every argument first
    if not isinstance(x, np.ndarray):
        return out
    a = np.asarray(x, dtype=np.float64)
    if id(x) not in _STATS:
        mean = a.mean(axis=1, keepdims=True)
        _STATS[id(x)] = (x, mean, np.sqrt(((a - mean) ** 2).mean(axis=1, keepdims=True) + eps))
    _, mean, std = _STATS[id(x)]
    if mean.shape[0] != a.shape[0]:
        return out
    return (a - mean) / std * np.asarray(gain, dtype=np.float64) + np.asarray(
        bias, dtype=np.float64
    )
