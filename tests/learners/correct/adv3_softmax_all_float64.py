"""Correct, from an adversarial tester's third held-out set (softmax_all_float64): softmax_temperature computed entirely in float64 (max, division, exp, sum) and rounded to the logits' floating dtype once at the end."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def softmax_temperature(logits, temperature):  # noqa: F811
    if isinstance(temperature, bool | np.bool_) or not isinstance(
        temperature, int | float | np.integer | np.floating
    ):
        raise ValueError("temperature must be a real number")
    if not math.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be finite and > 0")
    z = np.asarray(logits)
    if not np.issubdtype(z.dtype, np.floating):
        if not (np.issubdtype(z.dtype, np.integer) or z.dtype == np.bool_):
            raise ValueError("logits must be real numbers")
        z = z.astype(np.float64)
    if z.ndim < 1 or z.shape[-1] == 0 or z.size == 0:
        raise ValueError("logits must be (..., V)")
    if not np.all(np.isfinite(z)):
        raise ValueError("logits must be finite")
    w = z.astype(np.float64)
    w = (w - w.max(axis=-1, keepdims=True)) / float(temperature)
    e = np.exp(w)
    return (e / e.sum(axis=-1, keepdims=True)).astype(z.dtype)
