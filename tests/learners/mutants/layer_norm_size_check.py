"""Mutant: layer_norm checks gain.size and bias.size == d instead of their shapes: a gain or bias of shape (1, d) (or (d, 1)) is accepted. From an adversarial tester's third held-out set (layer_norm_size_check)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def layer_norm(x: Array, gain: Array, bias: Array, eps: float = 1e-5) -> Array:
    """Stage 3 (LayerNorm): normalize each position's d features, then scale and shift.

    Shapes: x (T, d), gain (d,), bias (d,) -> (T, d). Mean and (biased) variance are taken
    over the feature axis of each row, so no position sees another; eps is added to the
    variance before the square root, as in GPT-2. The result is float64 whatever the inputs'
    float dtype (float32 in, float64 out). ValueError for shapes that do not fit (a gain or
    bias of shape (1,) included: nothing is broadcast) or eps <= 0.
    """
    x = np.asarray(x, dtype=np.float64)  # (T, d)
    gain = np.asarray(gain, dtype=np.float64)  # (d,)
    bias = np.asarray(bias, dtype=np.float64)  # (d,)
    if x.ndim != 2 or gain.size != x.shape[1] or bias.size != x.shape[1]:
        raise ValueError(
            f"need x (T, d), gain (d,), bias (d,); got {x.shape}, {gain.shape}, {bias.shape}"
        )
    if not eps > 0:
        raise ValueError(f"eps must be > 0, got {eps}")
    mean = x.mean(axis=1, keepdims=True)  # (T, 1)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)  # (T, 1)
    return (x - mean) / np.sqrt(var + eps) * gain + bias
