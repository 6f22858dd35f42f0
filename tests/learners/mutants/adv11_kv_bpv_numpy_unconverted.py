"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: kv_cache_bytes range-checks bytes_per_value but never converts it with operator.index: np.int32(2) makes the product int32 arithmetic, which overflows."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value=4):
    sizes = [
        as_int(n, v, 0)
        for n, v in zip(
            ("batch", "length", "n_layer", "d_model"), (batch, length, n_layer, d_model)
        )
    ]
    # bytes_per_value is a small constant (1, 2, 4, 8): only its range needs checking
    if isinstance(bytes_per_value, bool) or bytes_per_value < 1:
        raise ValueError("bytes_per_value must be >= 1")
    return 2 * math.prod(sizes) * bytes_per_value
