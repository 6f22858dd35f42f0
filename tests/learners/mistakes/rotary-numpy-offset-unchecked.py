"""Checks offset >= 0 for Python ints only.

The scaffold's reference rotary_embedding() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import numpy as np


def rotary_embedding(x: Array, offset: int = 0) -> Array:
    x = np.asarray(x, dtype=np.float64)  # (T, hs)
    if x.ndim != 2:
        raise ValueError(f"x must be (T, hs), got {x.shape}")
    if (
        isinstance(offset, bool)
        or not isinstance(offset, int | np.integer)
        or (isinstance(offset, int) and offset < 0)
    ):
        raise ValueError(f"offset must be an integer >= 0, got {offset!r}")
    t_len, hs = x.shape
    omega = _frequencies(hs)  # (hs/2,)
    angles = (offset + np.arange(t_len, dtype=np.float64))[:, None] * omega  # (T, hs/2)
    cos, sin = np.cos(angles), np.sin(angles)  # (T, hs/2) each
    even, odd = x[:, 0::2], x[:, 1::2]  # (T, hs/2) each, views
    out = np.empty_like(x)  # (T, hs)
    out[:, 0::2] = even * cos - odd * sin
    out[:, 1::2] = even * sin + odd * cos
    return out
