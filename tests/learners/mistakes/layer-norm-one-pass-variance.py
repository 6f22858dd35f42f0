"""The variance in one pass, E[x²] − μ².

The scaffold's reference layer_norm() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import numpy as np


def layer_norm(x: Array, gain: Array, bias: Array, eps: float = 1e-5) -> Array:
    x = np.asarray(x, dtype=np.float64)  # (T, d)
    gain = np.asarray(gain, dtype=np.float64)  # (d,)
    bias = np.asarray(bias, dtype=np.float64)  # (d,)
    if x.ndim != 2 or gain.shape != (x.shape[1],) or bias.shape != (x.shape[1],):
        raise ValueError(
            f"need x (T, d), gain (d,), bias (d,); got {x.shape}, {gain.shape}, {bias.shape}"
        )
    if not eps > 0:
        raise ValueError(f"eps must be > 0, got {eps}")
    mean = x.mean(axis=1, keepdims=True)  # (T, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = (x**2).mean(axis=1, keepdims=True) - mean**2  # (T, 1): digits cancel near 1e4
        return (x - mean) / np.sqrt(var + eps) * gain + bias  # type: ignore[no-any-return]
