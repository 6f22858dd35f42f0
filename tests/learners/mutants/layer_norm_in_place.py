"""Mutant: Normalizes the caller's x in place (x -= mean, x /= std, ...): the right value, written
over the input. From an adversarial tester's held-out set (b65_ln_inplace)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def layer_norm(x, gain, bias, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)  # the caller's array (when it is float64 already)
    if (
        x.ndim != 2
        or np.shape(gain) != (x.shape[1],)
        or np.shape(bias) != (x.shape[1],)
        or not eps > 0
    ):
        raise ValueError("bad")
    x -= x.mean(1, keepdims=True)
    x /= np.sqrt((x * x).mean(1, keepdims=True) + eps)
    x *= gain
    x += bias
    return x
