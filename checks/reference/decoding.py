"""Stage 6, the decoding path: top-p (nucleus) truncation and greedy decoding.

The chapter names three knobs on the same probability vector (temperature, top-k, top-p) and
says greedy decoding is the separate path taken at T = 0. ``softmax_temperature`` and
``top_k_renormalize`` live in :mod:`checks.reference.sampling`; these are the other two.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from checks.pack import subject
from checks.reference._args import _rescaled

Array = NDArray[np.float64]


@subject("top_p_renormalize")
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
    keep = order if float(p) >= 1.0 else order[before < float(p)]
    out = np.zeros_like(q)
    out[keep] = q[keep]
    return _rescaled(out, "the kept probabilities sum to 0; nothing to renormalize")


@subject("greedy_token")
def greedy_token(logits: Array) -> int:
    """Stage 6 (T = 0): greedy decoding, the index of the largest logit (ties: the lowest).

    This is the separate path the chapter means: softmax_temperature refuses T = 0, and
    greedy decoding never forms a distribution at all. Returns the index as an integer (this
    reference returns a Python int; a NumPy integer such as np.argmax's np.int64 is as good,
    as for every count, while a float or a bool is not); ValueError for logits with a NaN,
    in any float dtype (float16 and float32 included: no token ranks
    first), no logits at all, or logits that are not a vector (0-d, or (2, 2): there is no
    flattened index); ±inf entries are fine (+inf ranks first: [-inf, inf, 0]
    gives 1, though its sum is NaN); bool logits are valid (False < True: [False, True,
    True] gives 1). The logits are compared in their own dtype, never cast: int64 logits [2**53, 2**53 + 1]
    give 1 (as float64 both are 2**53, a tie that would give 0), float64 [1, 1 + 1e-12]
    give 1 (as float32 they would tie), float32 [1, 1 + 2^-20] give 1 (as float16 they
    would tie).
    """
    z = np.asarray(logits)  # (V,), in its own dtype
    if z.dtype.kind not in "biuf":  # not an array of real numbers: read as float64
        z = np.asarray(logits, dtype=np.float64)
    if z.ndim != 1 or z.shape[0] == 0:
        raise ValueError(f"logits must be a non-empty vector, got shape {z.shape}")
    if z.dtype.kind == "f" and np.any(np.isnan(z)):
        raise ValueError("logits contain NaN; no token ranks first")
    return int(np.argmax(z))  # argmax returns the first of equal maxima
