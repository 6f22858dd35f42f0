"""Sines in the first half, cosines in the second.

The scaffold's reference sinusoidal_positions() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import numpy as np


def sinusoidal_positions(length: int, d_model: int) -> Array:
    if isinstance(length, bool) or not isinstance(length, int | np.integer) or length < 0:
        raise ValueError(f"length must be an integer >= 0, got {length!r}")
    omega = _frequencies(d_model)  # (d/2,)
    angles = np.arange(length, dtype=np.float64)[:, None] * omega  # (T, d/2)
    pe = np.empty((int(length), int(d_model)))  # (T, d)
    half = pe.shape[1] // 2
    pe[:, :half] = np.sin(angles)
    pe[:, half:] = np.cos(angles)
    return pe
