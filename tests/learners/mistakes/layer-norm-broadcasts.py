"""A gain or bias of shape (1,) broadcast.

The scaffold's reference layer_norm() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import numpy as np


def layer_norm(x: Array, gain: Array, bias: Array, eps: float = 1e-5) -> Array:
    x = np.asarray(x, dtype=np.float64)  # (T, d)
    gain = np.asarray(gain, dtype=np.float64)  # (d,)
    bias = np.asarray(bias, dtype=np.float64)  # (d,)
    if (
        x.ndim != 2
        or gain.shape not in ((x.shape[1],), (1,))
        or bias.shape not in ((x.shape[1],), (1,))
    ):
        raise ValueError(
            f"need x (T, d), gain (d,), bias (d,); got {x.shape}, {gain.shape}, {bias.shape}"
        )
    if not eps > 0:
        raise ValueError(f"eps must be > 0, got {eps}")
    mean = x.mean(axis=1, keepdims=True)  # (T, 1)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)  # (T, 1)
    return (x - mean) / np.sqrt(var + eps) * gain + bias  # type: ignore[no-any-return]
