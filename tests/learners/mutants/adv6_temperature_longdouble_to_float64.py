"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: softmax_temperature keeps float16 and float32 and turns every other dtype into float64: long double logits come back float64."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from _base import *
import numpy as np


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
    ([1e308, 1e308, 0]) are valid.
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
    if z.dtype.kind not in "biuf":
        raise ValueError(f"logits must be real numbers, got dtype {z.dtype}")
    if z.dtype not in (np.float16, np.float32):  # float16/float32 stay; the rest is float64
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
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
