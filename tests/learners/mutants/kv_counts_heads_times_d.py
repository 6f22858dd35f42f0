"""Mutant: kv_cache_bytes computes the bytes per token 2*L*d*bytes as a NumPy int64, then multiplies by B*T: the per-token product wraps past 2^63 (d_model = 2^62). From an adversarial tester's third held-out set (kv_counts_heads_times_d)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def _count(name: str, value: int, minimum: int) -> int:
    """An exact Python int from an integer argument (NumPy integers too), or ValueError."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def kv_cache_bytes(
    batch: int, length: int, n_layer: int, d_model: int, bytes_per_value: int = 4
) -> int:
    """Stage 7 (KV cache): 2 × B × T × L × d × bytes, the keys and values of T tokens.

    Each of the L layers keeps one key and one value vector of width d (all heads together)
    for each of the T tokens of each of the B sequences; FP32 is 4 bytes. Sizes are integers
    >= 0 (0 is valid: 0 bytes; bytes_per_value >= 1), Python or NumPy; the result is an exact
    Python int.
    """
    b = _count("batch", batch, 0)
    t = _count("length", length, 0)
    n_layer_ = _count("n_layer", n_layer, 0)
    d = _count("d_model", d_model, 0)
    size = _count("bytes_per_value", bytes_per_value, 1)
    per_token = np.int64(2) * n_layer_ * d * size  # bytes per token, a NumPy int64
    return int(b * t * per_token)
