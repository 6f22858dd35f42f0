"""Uses the exact erf GELU.

The scaffold's reference position_wise_mlp() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import math

import numpy as np


def position_wise_mlp(x: Array, w_in: Array, w_out: Array) -> Array:
    x = _matrix("x", x)  # (T, d)
    w_in, w_out = _matrix("w_in", w_in), _matrix("w_out", w_out)  # (d, d_ff), (d_ff, d_out)
    if w_in.shape[0] != x.shape[1] or w_out.shape[0] != w_in.shape[1]:
        raise ValueError(
            f"shapes do not chain: x {x.shape}, w_in {w_in.shape}, w_out {w_out.shape}"
        )
    h = x @ w_in  # (T, d_ff)
    # GELU, tanh form (as in GPT-2); any pointwise nonlinearity keeps positions separate.
    # For |h| > 1e102 h³ overflows to ±inf and tanh gives exactly ±1: still no NaN.
    with np.errstate(over="ignore"):
        h = 0.5 * h * (1.0 + np.vectorize(math.erf)(h / math.sqrt(2.0)))
    return h @ w_out  # (T, d_out)
