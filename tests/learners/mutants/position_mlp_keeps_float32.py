"""Mutant: position_wise_mlp multiplies in the inputs' dtype: float32 x and weights give a float32 result (contract: float64). From an adversarial tester's third held-out set (position_mlp_keeps_float32)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def position_wise_mlp(x: Array, w_in: Array, w_out: Array) -> Array:
    """Stage 3: the FFN applied to each position on its own: (T, d) -> (T, d_out).

    x (T, d), w_in (d, d_ff), w_out (d_ff, d_out), no biases: GELU(x @ w_in) @ w_out, with
    GELU in its tanh form (GPT-2's): 0.5·h·(1 + tanh(√(2/π)·(h + 0.044715·h³))). The exact
    erf GELU differs from it by up to 4.7e-4 (at h ≈ −2.7), far beyond the claims' tolerance: it,
    ReLU or no nonlinearity at all fail. Shapes that do not chain are a ValueError.
    """
    x, w_in, w_out = np.asarray(x), np.asarray(w_in), np.asarray(w_out)
    if any(a.ndim != 2 or 0 in a.shape for a in (x, w_in, w_out)):
        raise ValueError("x, w_in, w_out must be 2-D")
    if w_in.shape[0] != x.shape[1] or w_out.shape[0] != w_in.shape[1]:
        raise ValueError(
            f"shapes do not chain: x {x.shape}, w_in {w_in.shape}, w_out {w_out.shape}"
        )
    h = x @ w_in  # (T, d_ff)
    # GELU, tanh form (as in GPT-2); any pointwise nonlinearity keeps positions separate.
    # For |h| > 1e102 h³ overflows to ±inf and tanh gives exactly ±1: still no NaN.
    with np.errstate(over="ignore"):
        h = 0.5 * h * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * h**3)))
    return h @ w_out
