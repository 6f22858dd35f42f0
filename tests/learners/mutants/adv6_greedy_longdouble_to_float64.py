"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: greedy_token casts float logits to float64 before the argmax: lossless for float16 and float32, not for a long double ([1, 1 + 2**-60] gives 0 instead of 1)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from _base import *
import numpy as np


def greedy_token(logits: Array) -> int:
    """Stage 6 (T = 0): greedy decoding, the index of the largest logit (ties: the lowest).

    This is the separate path the chapter means: softmax_temperature refuses T = 0, and
    greedy decoding never forms a distribution at all. Returns the index as an integer (this
    reference returns a Python int; a NumPy integer such as np.argmax's np.int64 is as good,
    as for every count, while a float or a bool is not); ValueError for logits with a NaN,
    in any float dtype (float16 and float32 included: no token ranks
    first), or no logits at all; ±inf entries are fine (+inf ranks first: [-inf, inf, 0]
    gives 1, though its sum is NaN); bool logits are valid (False < True: [False, True,
    True] gives 1). The logits are compared in their own dtype, never cast: int64 logits [2**53, 2**53 + 1]
    give 1 (as float64 both are 2**53, a tie that would give 0), float64 [1, 1 + 1e-12]
    give 1 (as float32 they would tie), float32 [1, 1 + 2^-20] give 1 (as float16 they
    would tie).
    """
    z = np.asarray(logits)  # (V,), in its own dtype
    if z.dtype.kind not in "biu":  # floats compared as float64 (exact for float16/32)
        z = np.asarray(logits, dtype=np.float64)
    if z.ndim != 1 or z.shape[0] == 0:
        raise ValueError(f"logits must be a non-empty vector, got shape {z.shape}")
    if z.dtype.kind == "f" and np.any(np.isnan(z)):
        raise ValueError("logits contain NaN; no token ranks first")
    return int(np.argmax(z))
