"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: layer_norm normalizes over the last axis of any x and never checks it is (T, d): x of shape (d,) or (B, T, d) is accepted where the contract raises ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from _base import *
import numpy as np


def layer_norm(x: Array, gain: Array, bias: Array, eps: float = 1e-5) -> Array:
    """Stage 3 (LayerNorm): normalize each position's d features, then scale and shift.

    Shapes: x (T, d), gain (d,), bias (d,) -> (T, d). Mean and (biased) variance are taken
    over the feature axis of each row, so no position sees another; eps is added to the
    variance before the square root, as in GPT-2. The result is float64 whatever the inputs'
    dtype (float32 or integer in, float64 out). ValueError for shapes that do not fit (a gain
    or bias of shape (1,) included: nothing is broadcast; a gain of shape (1, d) or a bias of
    shape (d, 1) has the right size but not the shape (d,), and is refused too) or an eps
    that is not > 0 (NaN included).
    """
    x = np.asarray(x, dtype=np.float64)  # (T, d)
    gain = np.asarray(gain, dtype=np.float64)  # (d,)
    bias = np.asarray(bias, dtype=np.float64)  # (d,)
    if x.ndim < 1 or gain.shape != (x.shape[-1],) or bias.shape != (x.shape[-1],):
        raise ValueError(
            f"need x (T, d), gain (d,), bias (d,); got {x.shape}, {gain.shape}, {bias.shape}"
        )
    if not eps > 0:
        raise ValueError(f"eps must be > 0, got {eps}")
    mean = x.mean(axis=-1, keepdims=True)  # (..., 1)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)  # (..., 1)
    return (x - mean) / np.sqrt(var + eps) * gain + bias
