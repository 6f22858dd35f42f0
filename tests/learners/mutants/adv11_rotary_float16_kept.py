"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: rotary_embedding keeps float16 x in float16."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def rotary_embedding(x, offset=0):
    x = np.asarray(x)
    if x.dtype == np.float32 or x.dtype.kind in "iub" or x.dtype.itemsize > 8:
        x = x.astype(np.float64)
    if x.ndim != 2:
        raise ValueError("x must be (T, hs)")
    start = as_int("offset", offset, 0)
    omega = _omega(x.shape[1])
    angle = (start + np.arange(x.shape[0], dtype=np.float64))[:, None] * omega[None, :]
    pairs = x.reshape(x.shape[0], -1, 2)
    c, s = np.cos(angle).astype(x.dtype), np.sin(angle).astype(x.dtype)
    out = np.stack(
        [pairs[..., 0] * c - pairs[..., 1] * s, pairs[..., 0] * s + pairs[..., 1] * c], axis=-1
    )
    return out.reshape(x.shape)
