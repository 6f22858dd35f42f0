"""Mutant: averaging_model never casts to float64 and builds its counts in x's dtype: float32 x gives a float32 result (contract: float64). From an adversarial tester's third held-out set (avg_keeps_float32)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def averaging_model(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """Stage 2, the 'all structure' end: each position outputs the mean of its prefix.

    It takes no weights at all: every decision is written into the structure. x is (T, d)
    with T, d >= 1 (else ValueError); the output is (T, d) float64, row t the mean of rows 0..t.
    The chapter says its compute is proportional to T: a running sum is. The claims measure
    the call's peak memory from T = 512 to 2,048, which must grow linearly (log-log slope
    0.8–1.2): no (T, T) averaging matrix (np.tril(...) @ x is the same function and fails).
    """
    x = np.asarray(x)  # (T, d)
    if x.ndim != 2 or 0 in x.shape:
        raise ValueError(f"x must have shape (T, d) with T, d >= 1, got {x.shape}")
    t_len = x.shape[0]
    counts = np.arange(1, t_len + 1, dtype=x.dtype)[:, None]  # (T, 1)
    mean: NDArray[np.float64] = np.cumsum(x, axis=0) / counts  # (T, d)
    return mean
