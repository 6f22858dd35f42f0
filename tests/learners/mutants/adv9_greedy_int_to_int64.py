"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: greedy_token casts integer logits to int64: uint64 [2**63, 1] wraps and picks 1."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def greedy_token(logits):
    z = np.asarray(logits)
    if z.dtype.kind in "biu":
        z = z.astype(np.int64)  # integers compared exactly, in int64
    elif z.dtype.kind != "f":
        z = np.asarray(logits, dtype=np.float64)
    if z.ndim != 1 or z.size == 0 or (z.dtype.kind == "f" and np.isnan(z).any()):
        raise ValueError("logits must be a non-empty vector without NaN")
    return int(np.argmax(z))
