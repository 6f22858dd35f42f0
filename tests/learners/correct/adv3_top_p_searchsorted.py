"""Correct, from an adversarial tester's third held-out set (top_p_searchsorted): top_p_renormalize counting the kept tokens with np.searchsorted on the float64 running sum (1 + how many prefix sums lie below p). Changed here: p = 1 keeps every token and the rescale is the base's (over the largest first when the sum overflows), as the contract now says ([1e308, 1e308, 1] at p = 1)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def top_p_renormalize(probs, p):  # noqa: F811
    q = np.asarray(probs, dtype=np.float64)
    if q.ndim != 1 or q.shape[0] == 0:
        raise ValueError("probs must be a non-empty vector")
    if not np.all(np.isfinite(q)) or np.any(q < 0):
        raise ValueError("probs must be finite and non-negative")
    if isinstance(p, bool) or not isinstance(p, int | float | np.floating | np.integer):
        raise ValueError("p must be a number")
    if not (math.isfinite(float(p)) and 0.0 < float(p) <= 1.0):
        raise ValueError("p must be in (0, 1]")
    order = np.argsort(-q, kind="stable")
    cums = np.cumsum(q[order])
    n = min(int(np.searchsorted(cums[:-1], float(p), side="left")) + 1, q.shape[0])
    if float(p) >= 1.0:  # p = 1 keeps every token, whatever the running sum rounds to
        n = q.shape[0]
    out = np.zeros_like(q)
    out[order[:n]] = q[order[:n]]
    return to_one(out)  # the base's rescale, over the largest first if the sum overflows
