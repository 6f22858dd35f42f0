"""Mutant: Does not cast to float64: float32 input gives a float32 result (the contract: results
are float64). From an adversarial tester's second held-out set (layer_norm_keeps_input_dtype)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_ln = layer_norm


def layer_norm(x, gain, bias, eps=1e-5):
    out = _correct_ln(x, gain, bias, eps)
    dtype = np.asarray(x).dtype
    return out.astype(dtype) if np.issubdtype(dtype, np.floating) else out  # x's own dtype
