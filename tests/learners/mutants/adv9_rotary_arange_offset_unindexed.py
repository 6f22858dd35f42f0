"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: rotary_embedding builds positions with np.arange(offset, offset + T) in the offset's dtype: np.int32(2**31 - 1) wraps."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def rotary_embedding(x, offset=0):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError("x must be (T, hs)")
    if isinstance(offset, bool) or not isinstance(offset, (int, np.integer)) or offset < 0:
        raise ValueError("offset must be an integer >= 0")
    omega = _omega(x.shape[1])
    positions = np.arange(offset, offset + x.shape[0], dtype=np.float64)
    angle = positions[:, None] * omega[None, :]
    pairs = x.reshape(x.shape[0], -1, 2)
    c, s = np.cos(angle), np.sin(angle)
    out = np.stack(
        [pairs[..., 0] * c - pairs[..., 1] * s, pairs[..., 0] * s + pairs[..., 1] * c], axis=-1
    )
    return out.reshape(x.shape)
