"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: position_wise_mlp requires w_out of shape (d_ff, d): a valid d_out != d is refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from _base import *
import numpy as np


def _matrix(name: str, a: object) -> Array:
    """``a`` as a float64 (rows, cols) array with both sizes >= 1, or a ValueError."""
    m = np.asarray(a, dtype=np.float64)
    if m.ndim != 2 or 0 in m.shape:
        raise ValueError(f"{name} must be a 2-D array with both sizes >= 1, got shape {m.shape}")
    return m


def position_wise_mlp(x: Array, w_in: Array, w_out: Array) -> Array:
    """Stage 3: the FFN applied to each position on its own: (T, d) -> (T, d_out).

    x (T, d), w_in (d, d_ff), w_out (d_ff, d_out), no biases: GELU(x @ w_in) @ w_out, with
    GELU in its tanh form (GPT-2's): 0.5·h·(1 + tanh(√(2/π)·(h + 0.044715·h³))). The exact
    erf GELU differs from it by up to 4.7e-4 (at h ≈ −2.7), far beyond the claims' tolerance: it,
    ReLU or no nonlinearity at all fail. Shapes that do not chain are a ValueError. The
    result is float64 whatever the inputs' dtype (float32 or integer in, float64 out,
    computed in float64).
    """
    x = _matrix("x", x)  # (T, d)
    w_in, w_out = _matrix("w_in", w_in), _matrix("w_out", w_out)  # (d, d_ff), (d_ff, d_out)
    if w_in.shape[0] != x.shape[1] or w_out.shape != (w_in.shape[1], x.shape[1]):
        raise ValueError(
            f"shapes do not chain: x {x.shape}, w_in {w_in.shape}, w_out {w_out.shape}"
        )
    h = x @ w_in  # (T, d_ff)
    # GELU, tanh form (as in GPT-2); any pointwise nonlinearity keeps positions separate.
    # For |h| > 1e102 h³ overflows to ±inf and tanh gives exactly ±1: still no NaN.
    with np.errstate(over="ignore"):
        h = 0.5 * h * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * h**3)))
    return h @ w_out
