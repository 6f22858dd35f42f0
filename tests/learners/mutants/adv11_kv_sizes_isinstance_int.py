"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: kv_cache_bytes checks its sizes >= 0 for Python ints only: np.int64(-1) gives a negative byte count."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value=4):
    values = (batch, length, n_layer, d_model, bytes_per_value)
    for name, value, low in zip(
        ("batch", "length", "n_layer", "d_model", "bytes_per_value"), values, (0, 0, 0, 0, 1)
    ):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{name} must be an integer")
        if isinstance(value, int) and value < low:
            raise ValueError(f"{name} must be >= {low}")
    return 2 * math.prod(int(v) for v in values)
