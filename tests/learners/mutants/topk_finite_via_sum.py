"""Mutant: top_k_renormalize checks finiteness with np.isfinite(p.sum()): finite probs whose sum overflows (1e308 entries) are refused. From an adversarial tester's third held-out set (topk_finite_via_sum)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def _integer(name: str, value: object, minimum: int) -> int:
    """``value`` as a Python int >= ``minimum``, or a ValueError naming the argument."""
    # bool is an int to Python, and np.bool_ was once an index: neither is a size
    if isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be an integer, got the boolean {value!r}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{name} must be an integer, got {value!r}") from None
    if number < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {number}")
    return number


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
    if not np.isfinite(p.sum()) or np.any(p < 0):
        raise ValueError("probs must be finite and non-negative")
    k = _integer("k", k, 1)
    if k > p.shape[0]:
        raise ValueError(f"k must be in 1..{p.shape[0]}, got {k}")
    keep = np.argsort(-p, kind="stable")[:k]  # (k,)
    out = np.zeros_like(p)
    out[keep] = p[keep]
    return to_one(out)  # the base's rescale (over the largest first if the sum overflows)
