"""Mutant: Rotates feature i with feature i + hs/2 (the rotate-half layout), not the interleaved pairs."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def rotary_embedding(x, offset=0):
    x = np.asarray(x, dtype=np.float64)
    start = as_int("offset", offset, 0)
    hs = x.shape[1]
    if hs % 2:
        raise ValueError("hs must be even")
    omega = 10000.0 ** (-np.arange(0, hs, 2) / hs)
    angle = (start + np.arange(x.shape[0]))[:, None] * omega
    first, second = x[:, : hs // 2], x[:, hs // 2 :]
    c, s = np.cos(angle), np.sin(angle)
    return np.concatenate([first * c - second * s, first * s + second * c], axis=1)
