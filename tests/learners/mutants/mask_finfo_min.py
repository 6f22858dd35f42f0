"""Mutant: causal_masked_attention fills the future with np.finfo(float64).min (as HF transformers' masked_fill does) instead of -inf: finite, so when every visible score is that minimum the future gets weight. From an adversarial tester's third held-out set (mask_finfo_min)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def _softmax_last(z: Array) -> Array:
    # Subtracting the row max keeps exp() finite; a row of all -inf cannot occur here
    # because the diagonal is always visible.
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def causal_masked_attention(scores: Array) -> Array:
    """Stage 5: attention weights where row t is a softmax over positions 0..t only.

    ``scores`` has shape (..., T, T) with T >= 1 (any leading axes: heads, batch), finite
    (non-finite scores are outside the contract); anything else is a ValueError. Setting the
    future to -inf *deletes* it from the softmax's domain: exp(-inf) is an exact 0 and the
    visible prefix is renormalized. The row max is subtracted first, so scores of any finite
    magnitude (±1e4, ±1e300) give no NaN. Returns float64 of the same shape.
    """
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim < 2 or scores.shape[-2] != scores.shape[-1] or scores.shape[-1] == 0:
        raise ValueError(f"scores must have shape (..., T, T) with T >= 1, got {scores.shape}")
    t_len = scores.shape[-1]
    future = np.triu(np.ones((t_len, t_len), dtype=bool), k=1)  # (T, T), True where s > t
    return _softmax_last(np.where(future, np.finfo(np.float64).min, scores))
