"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: layer_norm normalizes over the last axis of any x and never checks it is (T, d): x of shape (d,) or (B, T, d) is accepted where the contract raises ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def layer_norm(x, gain, bias, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2:  # <- any leading axes, normalized over the last
        rows = _base.layer_norm(x.reshape(-1, x.shape[-1]), gain, bias, eps)
        return rows.reshape(x.shape)
    return _base.layer_norm(x, gain, bias, eps)
