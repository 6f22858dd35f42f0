"""From an adversarial tester's fourth held-out set (its correct sinusoidal_positions, the base's, was called WRONG beside it): BUGGY: rotary_embedding puts row t at position offset + t + 1 (1-based positions)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
from _base import _as_bytes, _omega
import numpy as np


def rotary_embedding(x, offset=0):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError("x must be (T, hs)")
    start = as_int("offset", offset, 0)
    omega = _omega(x.shape[1])
    angle = (start + 1 + np.arange(x.shape[0]))[:, None] * omega[None, :]
    pairs = x.reshape(x.shape[0], -1, 2)
    c, s = np.cos(angle), np.sin(angle)
    out = np.stack(
        [pairs[..., 0] * c - pairs[..., 1] * s, pairs[..., 0] * s + pairs[..., 1] * c], axis=-1
    )
    return out.reshape(x.shape)
