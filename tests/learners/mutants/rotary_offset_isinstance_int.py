"""Mutant: rotary_embedding validates offset with isinstance(offset, int), so a negative NumPy integer offset (np.int64(-1)) skips the check. From an adversarial tester's third held-out set (rotary_offset_isinstance_int)."""

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


def rotary_embedding(x: Array, offset: int = 0) -> Array:
    """Stage 3 (rotary positions): rotate each feature pair of x by its position's angle.

    Shapes: x (T, hs) -> (T, hs), hs even. Row t sits at position offset + t; the pair
    (x[2i], x[2i+1]) is rotated by the angle (offset + t)·ω_i with ω_i = 10000^(−2i/hs), the
    interleaved pairs of RoFormer (not the rotate-half layout pairing i with i + hs/2).
    Applied to queries and keys, it makes q_m·k_n depend on m − n only; it has no parameter.
    ValueError for an odd hs or a negative offset.
    """
    x = np.asarray(x, dtype=np.float64)  # (T, hs)
    if x.ndim != 2:
        raise ValueError(f"x must be (T, hs), got {x.shape}")
    if isinstance(offset, int) and offset < 0:
        raise ValueError(f"offset must be an integer >= 0, got {offset!r}")
    t_len, hs = x.shape
    omega = _frequencies(hs)  # (hs/2,)
    angles = (offset + np.arange(t_len, dtype=np.float64))[:, None] * omega  # (T, hs/2)
    cos, sin = np.cos(angles), np.sin(angles)  # (T, hs/2) each
    even, odd = x[:, 0::2], x[:, 1::2]  # (T, hs/2) each, views
    out = np.empty_like(x)  # (T, hs)
    out[:, 0::2] = even * cos - odd * sin
    out[:, 1::2] = even * sin + odd * cos
    return out
