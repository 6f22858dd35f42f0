"""Mutant: greedy_token refuses NaN only for float64 logits (checks z.dtype == np.float64): a float32 or float16 NaN is not refused. From an adversarial tester's third held-out set (greedy_isnan_any_float64_only)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def greedy_token(logits: Array) -> int:
    """Stage 6 (T = 0): greedy decoding, the index of the largest logit (ties: the lowest).

    This is the separate path the chapter means: softmax_temperature refuses T = 0, and
    greedy decoding never forms a distribution at all. Returns a Python int; ValueError for
    logits with a NaN (no token ranks first) or no logits at all (−inf entries are fine).
    The logits are compared in their own dtype, never cast: int64 logits [2**53, 2**53 + 1]
    give 1 (as float64 both are 2**53, a tie that would give 0), float64 [1, 1 + 1e-12]
    give 1 (as float32 they would tie).
    """
    z = np.asarray(logits)  # (V,), in its own dtype
    if z.dtype.kind not in "biuf":  # not an array of real numbers: read as float64
        z = np.asarray(logits, dtype=np.float64)
    if z.ndim != 1 or z.shape[0] == 0:
        raise ValueError(f"logits must be a non-empty vector, got shape {z.shape}")
    if z.dtype == np.float64 and np.any(np.isnan(z)):
        raise ValueError("logits contain NaN; no token ranks first")
    return int(np.argmax(z))
