"""Mutant: layer_norm keeps float64 copies of gain and bias under their id(), and holds
them: a caller who updates its gain in place (a training step) and calls again gets the
old gain. Right for every new array object, and for float64 weights (the copy is the
weight itself); only a call on the same float32 arrays with new contents tells (a
buggy-learner round, 2026-12-07)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *

_PARAMS = {}


def layer_norm(x, gain, bias, eps=1e-5):
    key = (id(gain), id(bias))
    if key not in _PARAMS:
        _PARAMS[key] = (
            gain,
            bias,
            np.asarray(gain, dtype=np.float64),
            np.asarray(bias, dtype=np.float64),
        )
    return _base.layer_norm(x, _PARAMS[key][2], _PARAMS[key][3], eps)
