"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: flash_attention casts only float inputs ('integers are exact'): int8 q·kᵀ wraps."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def flash_attention(q, k, v, block):
    out = _base.flash_attention(q, k, v, block)  # the base's checks and shape
    q, k, v = (np.asarray(a) for a in (q, k, v))
    if all(a.dtype.kind in "iu" for a in (q, k, v)):  # <- "integers are exact": not cast
        scores = (q @ k.T) / math.sqrt(q.shape[1])  # int8 @ int8 wraps in int8
        return causal_masked_attention(scores) @ v.astype(np.float64)
    return out
