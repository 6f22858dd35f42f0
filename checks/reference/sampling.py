"""Stage 6: temperature and top-k, two operations on the same probability vector."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from checks.registry import subject

Array = NDArray[np.floating]


@subject("softmax_temperature")
def softmax_temperature(logits: Array, temperature: float) -> Array:
    """Stage 6: softmax(logits / T), computed in the logits' own floating dtype.

    T <= 0 is refused: T = 0 is greedy decoding (an argmax), a separate path, and
    dividing by it would only manufacture inf - inf = NaN.
    """
    if not math.isfinite(temperature) or temperature <= 0:
        raise ValueError(
            f"temperature must be a finite number > 0, got {temperature}; "
            "use greedy decoding (argmax) for T = 0"
        )
    z = np.asarray(logits)
    if not np.issubdtype(z.dtype, np.floating):
        z = z.astype(np.float64)
    # Keep T in the logits' dtype so float16/float32 runs stay in that precision.
    z = z / np.asarray(temperature, dtype=z.dtype)  # (V,)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)  # type: ignore[no-any-return]


@subject("top_k_renormalize")
def top_k_renormalize(probs: Array, k: int) -> Array:
    """Stage 6: keep the k largest probabilities, set the rest to an exact 0, rescale to 1.

    Ties at the boundary keep the lower index (a stable sort), so exactly k survive.
    """
    p = np.asarray(probs, dtype=np.float64)  # (V,)
    if p.ndim != 1:
        raise ValueError(f"probs must be a vector, got shape {p.shape}")
    if not 1 <= k <= p.shape[0]:
        raise ValueError(f"k must be in 1..{p.shape[0]}, got {k}")
    keep = np.argsort(-p, kind="stable")[:k]  # (k,)
    out = np.zeros_like(p)
    out[keep] = p[keep]
    total = out.sum()
    if not total > 0:
        raise ValueError("the k kept probabilities sum to 0; nothing to renormalize")
    return out / total  # type: ignore[no-any-return]
