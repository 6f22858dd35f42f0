"""Mutant: top_k_renormalize checks k >= 1 only when k is a Python int (isinstance(k, int)): a negative NumPy k (np.int64(-1)) keeps V - 1 entries instead of raising. From an adversarial tester's third held-out set (topk_k_isinstance_int)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def top_k_renormalize(probs: Array, k: int) -> Array:
    """Stage 6: keep the k largest probabilities, set the rest to an exact 0, rescale to 1.

    ``probs`` is a vector (V,) with V >= 1 of finite, non-negative numbers; k is an integer
    in 1..V. Ties at the boundary keep the lower index (a stable sort), so exactly k entries
    are kept. The kept entries must have a positive sum. Every violation is a ValueError.
    Returns float64.
    """
    p = np.asarray(probs, dtype=np.float64)  # (V,)
    if p.ndim != 1 or p.shape[0] == 0:
        raise ValueError(f"probs must be a non-empty vector, got shape {p.shape}")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be finite and non-negative")
    if isinstance(k, int) and k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    if k > p.shape[0]:
        raise ValueError(f"k must be in 1..{p.shape[0]}, got {k}")
    keep = np.argsort(-p, kind="stable")[:k]  # (k,)
    out = np.zeros_like(p)
    out[keep] = p[keep]
    return to_one(out)  # the base's rescale (over the largest first if the sum overflows)
