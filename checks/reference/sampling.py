"""Stage 6: temperature and top-k, two operations on the same probability vector."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from checks.pack import subject
from checks.reference._args import _integer, _rescaled, _shares

Array = NDArray[np.floating]


@subject("softmax_temperature")
def softmax_temperature(logits: Array, temperature: float) -> Array:
    """Stage 6: softmax(logits / T) over the last axis, in the logits' own floating dtype.

    ``logits`` is (..., V) with V >= 1 and any leading axes ((V,), (B, V), (B, T, V)): the
    softmax is over the last axis. Every entry is finite; a floating array (float16 to
    longdouble) stays in its dtype, integer and bool logits become float64. T must be a
    finite real > 0: T = 0 is greedy decoding (an argmax), a separate path, and dividing by
    it would only manufacture inf - inf = NaN. Every violation is a ValueError. The max is subtracted *before* dividing
    by T, so no finite T > 0 overflows: the largest logit's entry is exp(0) = 1 before
    normalizing, whatever the dtype (float16 at T = 1e-5 included). The division is done at
    float64 precision and rounded back: below 6e-8, T itself is 0 in float16 (T = 1e-8).
    Integer logits are cast to float64 before anything is subtracted (uint8 [3, 1, 4] must
    not wrap around). ±inf and NaN logits are refused; finite logits whose sum overflows
    ([1e308, 1e308, 0]) are valid. float16 shares are summed in float32 (65,520 float16
    ones sum to inf in float16).
    """
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
    # Divided at float64 precision (or better) and rounded to the logits' dtype: T itself may
    # underflow in float16 (below 6e-8), and z / T then rounds to -inf, whose exp is an exact 0.
    wide = np.result_type(z.dtype, np.float64)
    with np.errstate(over="ignore"):  # rounding a quotient below float16's range to -inf
        z = (z.astype(wide) / temperature).astype(z.dtype)
    return _shares(np.exp(z))  # (..., V), each exp in (0, 1]


@subject("top_k_renormalize")
def top_k_renormalize(probs: Array, k: int) -> Array:
    """Stage 6: keep the k largest probabilities, set the rest to an exact 0, rescale to 1.

    ``probs`` is a vector (V,) with V >= 1 of finite, non-negative numbers; k is an integer
    in 1..V (a NumPy integer below 1, np.int64(-1), is refused too). Ties at the boundary
    keep the lower index (a stable sort), so exactly k entries are kept. The kept entries
    must have a positive sum. Every violation is a ValueError (an inf or NaN entry, tested
    entry by entry). Returns float64, computed in float64 whatever the probs' dtype (float32
    probs are rescaled in float64; integer weights such as counts give float64 too). Finite
    probs whose sum overflows ([1e308, 1e308, 1] at k = 2) are valid: the kept entries are
    divided by their largest first, so the result is [0.5, 0.5, 0], never x / inf = 0.
    """
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
    return _rescaled(out, "the k kept probabilities sum to 0; nothing to renormalize")
