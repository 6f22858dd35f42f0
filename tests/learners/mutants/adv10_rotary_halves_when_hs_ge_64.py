"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: rotary_embedding switches to the rotate-half layout when hs >= 64."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# rotary_embedding switches to the rotate-half layout for hs >= 64 ('the fast path of GPT-NeoX/LLaMA'): wrong pairs for wide heads
_rot_base = rotary_embedding


def rotary_embedding(x, offset=0):
    a = np.asarray(x)
    if a.ndim != 2 or a.shape[1] < 64 or a.shape[1] % 2:
        return _rot_base(x, offset)
    x = a.astype(np.float64)
    start = as_int("offset", offset, 0)
    omega = _omega(x.shape[1])
    ang = (start + np.arange(x.shape[0], dtype=np.float64))[:, None] * omega[None, :]
    h = x.shape[1] // 2
    x1, x2 = x[:, :h], x[:, h:]
    c, s = np.cos(ang), np.sin(ang)
    return np.concatenate([x1 * c - x2 * s, x1 * s + x2 * c], axis=1)
