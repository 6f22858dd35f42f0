"""Divides by the kept sum as it is.

The scaffold's reference top_k_renormalize() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import numpy as np


def top_k_renormalize(probs: Array, k: int) -> Array:
    p = np.asarray(probs, dtype=np.float64)  # (V,)
    if p.ndim != 1 or p.shape[0] == 0:
        raise ValueError(f"probs must be a non-empty vector, got shape {p.shape}")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be finite and non-negative")
    k = _integer("k", k, 1)
    if k > p.shape[0]:
        raise ValueError(f"k must be in 1..{p.shape[0]}, got {k}")
    keep = np.argsort(-p, kind="stable")[:k]  # (k,)
    out = np.zeros_like(p)
    out[keep] = p[keep]
    if not out.max() > 0:
        raise ValueError("the k kept probabilities sum to 0; nothing to renormalize")
    with np.errstate(over="ignore"):
        return out / out.sum()
