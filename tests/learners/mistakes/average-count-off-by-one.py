"""Divides by the 0-based index.

The scaffold's reference averaging_model() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import numpy as np


def averaging_model(x: NDArray[np.float64]) -> NDArray[np.float64]:
    x = np.asarray(x, dtype=np.float64)  # (T, d)
    if x.ndim != 2 or 0 in x.shape:
        raise ValueError(f"x must have shape (T, d) with T, d >= 1, got {x.shape}")
    t_len = x.shape[0]
    counts = np.arange(0, t_len, dtype=np.float64)[:, None]  # (T, 1)
    mean: NDArray[np.float64] = np.cumsum(x, axis=0) / counts  # (T, d)
    return mean
