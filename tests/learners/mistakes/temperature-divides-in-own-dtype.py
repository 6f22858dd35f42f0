"""Divides by T in the logits' own dtype.

The scaffold's reference softmax_temperature() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import math

import numpy as np


def softmax_temperature(logits: Array, temperature: float) -> Array:
    if isinstance(temperature, bool | np.bool_) or not isinstance(
        temperature, int | float | np.integer | np.floating
    ):
        raise ValueError(f"temperature must be a real number, got {temperature!r}")
    if not math.isfinite(temperature) or temperature <= 0:
        raise ValueError(
            f"temperature must be a finite number > 0, got {temperature}; "
            "use greedy decoding (argmax) for T = 0"
        )
    z = np.asarray(logits)
    if not np.issubdtype(z.dtype, np.floating):
        if not (np.issubdtype(z.dtype, np.integer) or z.dtype == np.bool_):
            raise ValueError(f"logits must be real numbers, got dtype {z.dtype}")
        z = z.astype(np.float64)
    if z.ndim < 1 or z.shape[-1] == 0 or z.size == 0:
        raise ValueError(f"logits must have shape (..., V) with V >= 1, got {z.shape}")
    if not np.all(np.isfinite(z)):
        raise ValueError("logits must be finite (no NaN or ±inf)")
    z = z - z.max(axis=-1, keepdims=True)  # (..., V), <= 0, exactly 0 at the max
    with np.errstate(over="ignore"):
        z = z / temperature  # in the logits' own dtype
    e = np.exp(z)
    return _shares(e)
