"""Fills the future with -1e9.

The scaffold's reference causal_masked_attention() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import numpy as np


def causal_masked_attention(scores: Array) -> Array:
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim < 2 or scores.shape[-2] != scores.shape[-1] or scores.shape[-1] == 0:
        raise ValueError(f"scores must have shape (..., T, T) with T >= 1, got {scores.shape}")
    t_len = scores.shape[-1]
    future = np.triu(np.ones((t_len, t_len), dtype=bool), k=1)  # (T, T), True where s > t
    return _softmax_last(np.where(future, -1e9, scores))  # (..., T, T)
