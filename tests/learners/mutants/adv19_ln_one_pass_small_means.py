"""From an adversarial tester's nineteenth held-out set (a false pass, now caught): BUGGY: layer_norm takes the one-pass variance E[x²] − μ² for features below 1e3."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def layer_norm(x, gain, bias, eps=1e-5):
    out = _base.layer_norm(x, gain, bias, eps)  # every check first
    x = np.asarray(x, dtype=np.float64)
    if np.abs(x).max(initial=0.0) >= 1e3:
        return out
    mu = x.mean(axis=-1, keepdims=True)
    var = (x * x).mean(axis=-1, keepdims=True) - mu * mu
    return (x - mu) / np.sqrt(var + eps) * np.asarray(gain, dtype=np.float64) + np.asarray(
        bias, dtype=np.float64
    )
