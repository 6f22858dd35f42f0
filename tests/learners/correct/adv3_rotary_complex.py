"""Correct, from an adversarial tester's third held-out set (rotary_complex): rotary_embedding with complex numbers: pairs (x[2i], x[2i+1]) as x[2i] + i*x[2i+1], times exp(i*(offset+t)*omega_i)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def _frequencies(width: int) -> Array:
    """ω_i = 10000^(−2i/width) for i = 0..width/2−1: one angular frequency per pair (10000 is
    the wavelength base of both papers)."""
    if isinstance(width, bool) or not isinstance(width, int | np.integer) or width < 2 or width % 2:
        raise ValueError(f"the width must be an even integer >= 2, got {width!r}")
    return 10000.0 ** (-np.arange(0, width, 2, dtype=np.float64) / width)


def rotary_embedding(x, offset=0):  # noqa: F811
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError("x must be (T, hs)")
    if isinstance(offset, bool) or not isinstance(offset, int | np.integer) or offset < 0:
        raise ValueError("offset must be an integer >= 0")
    t_len, hs = x.shape
    omega = _frequencies(hs)
    z = x[:, 0::2] + 1j * x[:, 1::2]
    z = z * np.exp(1j * (int(offset) + np.arange(t_len, dtype=np.float64))[:, None] * omega)
    out = np.empty_like(x)
    out[:, 0::2], out[:, 1::2] = z.real, z.imag
    return out
