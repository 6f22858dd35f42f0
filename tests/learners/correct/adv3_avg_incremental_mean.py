"""Correct, from an adversarial tester's third held-out set (avg_incremental_mean): averaging_model as an incremental running mean m_t = m_{t-1} + (x_t - m_{t-1}) / (t + 1)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def averaging_model(x):  # noqa: F811
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or 0 in x.shape:
        raise ValueError(f"x must have shape (T, d) with T, d >= 1, got {x.shape}")
    out = np.empty_like(x)
    m = np.zeros(x.shape[1])
    for t in range(x.shape[0]):
        m = m + (x[t] - m) / (t + 1)
        out[t] = m
    return out
