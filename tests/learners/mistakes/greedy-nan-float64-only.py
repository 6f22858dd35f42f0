"""Looks for NaN in float64 logits only.

The scaffold's reference greedy_token() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import numpy as np


def greedy_token(logits: Array) -> int:
    z = np.asarray(logits)  # (V,), in its own dtype
    if z.dtype.kind not in "biuf":  # not an array of real numbers: read as float64
        z = np.asarray(logits, dtype=np.float64)
    if z.ndim != 1 or z.shape[0] == 0:
        raise ValueError(f"logits must be a non-empty vector, got shape {z.shape}")
    if z.dtype == np.float64 and np.any(np.isnan(z)):
        raise ValueError("logits contain NaN; no token ranks first")
    return int(np.argmax(z))  # argmax returns the first of equal maxima
