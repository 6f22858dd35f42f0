"""Correct, from an adversarial tester's third held-out set (greedy_python_max): greedy_token as max(range(V), key=z.__getitem__): the first of equal maxima, compared in the logits' own dtype."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def greedy_token(logits):  # noqa: F811
    z = np.asarray(logits)
    if z.dtype.kind not in "biuf":
        z = np.asarray(logits, dtype=np.float64)
    if z.ndim != 1 or z.shape[0] == 0:
        raise ValueError("logits must be a non-empty vector")
    if z.dtype.kind == "f" and np.isnan(z).any():
        raise ValueError("NaN logits")
    return max(range(z.shape[0]), key=z.__getitem__)
