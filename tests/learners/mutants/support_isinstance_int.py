"""Mutant: sequence_support_log10 range-checks only Python ints (isinstance(x, int)): NumPy integers below the minimum (np.int64(-1), np.int32(0)) skip the checks. From an adversarial tester's third held-out set (support_isinstance_int)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def sequence_support_log10(vocab: int, length: int) -> float:
    """Stage 1: log10 |S| = log10 V^T, the number of length-T sequences over V tokens.

    V^T itself has thousands of digits, so it is never formed: log10 V^T = T log10 V.
    vocab >= 1 and length >= 0 are integers (Python or NumPy); anything else is a ValueError,
    each checked whatever the other is: V = 0 at T = 0 and V = 1 at T = -1 are refused too.
    """
    if isinstance(vocab, int) and vocab < 1:
        raise ValueError("vocab must be >= 1")
    if isinstance(length, int) and length < 0:
        raise ValueError("length must be >= 0")
    return length * math.log10(vocab)
