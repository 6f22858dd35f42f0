"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: greedy_token casts float logits to float64 before the argmax: lossless for float16 and float32, not for a long double ([1, 1 + 2**-60] gives 0 instead of 1)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def greedy_token(logits):
    z = np.asarray(logits)
    if z.dtype.kind == "f":
        z = z.astype(np.float64)  # <- "float64 is enough"
    return _base.greedy_token(z)
