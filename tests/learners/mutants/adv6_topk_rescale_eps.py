"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: top_k_renormalize treats a kept mass at or below 1e-12 as nothing to renormalize and raises: [1e-13, 0, 0] at k = 1 should give [1, 0, 0]."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from _base import *
import numpy as np


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


def _rescaled(kept: NDArray[np.float64], empty: str) -> NDArray[np.float64]:
    """``kept`` (finite, >= 0) rescaled to sum to 1, or ValueError(``empty``) when it sums to
    0. Divided by its largest entry first, so finite entries whose sum overflows
    ([1e308, 1e308, 1]) still give [0.5, 0.5, ~0], never x / inf = 0."""
    top = kept.max()
    if not kept.sum() > 1e-12:  # nothing (numerically) to renormalize
        raise ValueError(empty)
    with np.errstate(over="ignore"):  # the sum of finite entries may overflow to inf
        overflows = not np.isfinite(kept.sum())
    scaled = kept / top if overflows else kept  # (V,)
    return scaled / scaled.sum()


def top_k_renormalize(probs: Array, k: int) -> Array:
    """Stage 6: keep the k largest probabilities, set the rest to an exact 0, rescale to 1.

    ``probs`` is a vector (V,) with V >= 1 of finite, non-negative numbers; k is an integer
    in 1..V (a NumPy integer below 1, np.int64(-1), is refused too). Ties at the boundary
    keep the lower index (a stable sort), so exactly k entries are kept. The kept entries
    must have a positive sum. Every violation is a ValueError (an inf or NaN entry, tested
    entry by entry). Returns float64, computed in float64 whatever the probs' dtype (float32
    probs are rescaled in float64; integer weights such as counts give float64 too). Finite
    probs whose sum overflows ([1e308, 1e308, 1] at k = 2) are valid: the kept entries are
    divided by their largest first, so the result is [0.5, 0.5, 0], never x / inf = 0.
    """
    p = np.asarray(probs, dtype=np.float64)  # (V,)
    if p.ndim != 1 or p.shape[0] == 0:
        raise ValueError(f"probs must be a non-empty vector, got shape {p.shape}")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be finite and non-negative")
    k = _integer("k", k, 1)
    if k > p.shape[0]:
        raise ValueError(f"k must be in 1..{p.shape[0]}, got {k}")
    keep = np.argsort(-p, kind="stable")[:k]  # (k,)
    out = np.zeros_like(p)
    out[keep] = p[keep]
    return _rescaled(out, "the k kept probabilities sum to 0; nothing to renormalize")
