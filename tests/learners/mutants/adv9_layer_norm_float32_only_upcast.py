"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: layer_norm upcasts only float32: float16 x is normalized in float16."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def layer_norm(x, gain, bias, eps=1e-5):
    x = np.asarray(x)
    if x.dtype == np.float32:
        x = x.astype(np.float64)
    if x.ndim != 2 or 0 in x.shape:
        raise ValueError("x must be (T, d)")
    gain, bias = np.asarray(gain, dtype=np.float64), np.asarray(bias, dtype=np.float64)
    if gain.shape != (x.shape[1],) or bias.shape != (x.shape[1],):
        raise ValueError("gain and bias must be (d,)")
    if not eps > 0:
        raise ValueError("eps must be > 0")
    centered = x - x.mean(axis=1, keepdims=True)
    return centered / np.sqrt((centered**2).mean(axis=1, keepdims=True) + eps) * gain + bias
