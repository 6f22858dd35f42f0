"""The running sum in float32.

The scaffold's reference top_p_renormalize() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import math

import numpy as np


def top_p_renormalize(probs: Array, p: float) -> Array:
    q = np.asarray(probs, dtype=np.float64)  # (V,)
    if q.ndim != 1 or q.shape[0] == 0:
        raise ValueError(f"probs must be a non-empty vector, got shape {q.shape}")
    if not np.all(np.isfinite(q)) or np.any(q < 0):
        raise ValueError("probs must be finite and non-negative")
    if isinstance(p, bool) or not isinstance(p, int | float | np.floating | np.integer):
        raise ValueError(f"p must be a number in (0, 1], got {p!r}")
    if not (math.isfinite(float(p)) and 0.0 < float(p) <= 1.0):
        raise ValueError(f"p must be in (0, 1], got {p}")
    order = np.argsort(-q, kind="stable")  # (V,) token ids, most probable first
    ranked = q[order]  # (V,)
    # the mass strictly before each rank: a running sum shifted by one, never sum - self,
    # which would round differently from the sum the comparison is about
    with np.errstate(over="ignore"):  # finite probs may overflow: the mass is then inf >= p
        before = np.concatenate(([0.0], np.cumsum(ranked.astype(np.float32))[:-1]))  # (V,)
    # (n_kept,) token ids; rank 0 always (0 < p), every token at p = 1
    keep = order if float(p) >= 1.0 else order[before < float(p)]
    out = np.zeros_like(q)
    out[keep] = q[keep]
    return _rescaled(out, "the kept probabilities sum to 0; nothing to renormalize")
