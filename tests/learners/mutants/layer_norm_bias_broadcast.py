"""Mutant: Checks gain's shape only and lets a bias of shape (1,) broadcast, where the contract
refuses shapes that do not fit. From an adversarial tester's second held-out set (layer_norm_gain_bias_swapped_shape_check)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_ln = layer_norm


def layer_norm(x, gain, bias, eps=1e-5):
    b = np.asarray(bias, dtype=np.float64)
    if b.shape == (1,):
        b = np.full(np.shape(gain), b[0])  # one value for every feature
    return _correct_ln(x, gain, b, eps)
