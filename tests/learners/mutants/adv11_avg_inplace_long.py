"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: averaging_model computes a float64 x of T > 4,096 in place, writing the caller's array."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def averaging_model(x):
    arr = np.asarray(x)
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError("x must be (T, d) with T, d >= 1")
    counts = np.arange(1, arr.shape[0] + 1, dtype=np.float64)[:, None]
    if arr.dtype == np.float64 and arr.shape[0] > 4096:
        # very long sequences: sum in place, no second (T, d) array
        np.cumsum(arr, axis=0, out=arr)
        arr /= counts
        return arr
    return np.cumsum(arr.astype(np.float64), axis=0) / counts
