"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: top_p_renormalize keeps every token when np.isclose(p, 1): p = 0.999995 keeps a 4e-6 tail the contract cuts."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from _base import *
import numpy as np


def _rescaled(kept: NDArray[np.float64], empty: str) -> NDArray[np.float64]:
    """``kept`` (finite, >= 0) rescaled to sum to 1, or ValueError(``empty``) when it sums to
    0. Divided by its largest entry first, so finite entries whose sum overflows
    ([1e308, 1e308, 1]) still give [0.5, 0.5, ~0], never x / inf = 0."""
    top = kept.max()
    if not top > 0:
        raise ValueError(empty)
    with np.errstate(over="ignore"):  # the sum of finite entries may overflow to inf
        overflows = not np.isfinite(kept.sum())
    scaled = kept / top if overflows else kept  # (V,)
    return scaled / scaled.sum()


def top_p_renormalize(probs: Array, p: float) -> Array:
    """Stage 6 (top-p): keep the most probable tokens until their mass reaches p, rescale.

    Tokens are ranked by probability, highest first (ties: the lower index first, a stable
    sort). A token is kept when the mass of the tokens ranked before it is still below p
    (the probs' own mass: weights that do not sum to 1 are not normalized first, so
    [0.6, 0.6, 0.6, 0.2] at p = 0.5 keeps one token), so
    the token whose probability carries the mass to p is kept and at least one token always
    is; p = 1 keeps every token, whatever the running sum gives (it may round above 1, or
    overflow: [1e308, 1e308, 1] at p = 1 keeps all three). The mass before a token is a
    float64 running sum (not the sum minus the token itself, which rounds differently): p
    equal to the top probability keeps that token alone. The rest become an exact 0 and the
    survivors are rescaled to sum to 1, as in top-k (divided by the largest first when their
    sum overflows: [0.5, 0.5, ~0] above, never x / inf = 0). The running sum is sequential,
    as np.cumsum adds (or a loop ``mass += p``), in float64 whatever the probs' dtype
    (float32 probs are summed and rescaled in float64): an exactly rounded prefix
    (math.fsum) or a pairwise sum rounds elsewhere, and p = 0.9 over [0.4, 0.3, 0.2, 0.1]
    keeps all four tokens because 0.4 + 0.3 + 0.2 is 0.8999999999999999. ValueError for p
    outside (0, 1], for probs that are empty, non-finite (±inf, NaN) or negative, and for
    probs that are all 0 (nothing to rescale, as in top-k); finite probs whose sum overflows
    are valid.
    """
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
        before = np.concatenate(([0.0], np.cumsum(ranked)[:-1]))  # (V,)
    # (n_kept,) token ids; rank 0 always (0 < p), every token at p = 1
    keep = order if np.isclose(float(p), 1.0) else order[before < float(p)]  # p ~ 1: all
    out = np.zeros_like(q)
    out[keep] = q[keep]
    return _rescaled(out, "the kept probabilities sum to 0; nothing to renormalize")
