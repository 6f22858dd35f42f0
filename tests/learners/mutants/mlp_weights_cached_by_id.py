"""Mutant: position_wise_mlp keeps float64 copies of its weights under their id(), and
holds the weights: weights updated in place are multiplied in their old copies (a
buggy-learner round, 2026-12-07)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *

_WEIGHTS = {}


def position_wise_mlp(x, w_in, w_out):
    key = (id(w_in), id(w_out))
    if key not in _WEIGHTS:
        _WEIGHTS[key] = (
            w_in,
            w_out,
            np.array(w_in, dtype=np.float64),
            np.array(w_out, dtype=np.float64),
        )
    return _base.position_wise_mlp(x, _WEIGHTS[key][2], _WEIGHTS[key][3])
