"""The product in int64.

The scaffold's reference kv_cache_bytes() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import numpy as np


def kv_cache_bytes(
    batch: int, length: int, n_layer: int, d_model: int, bytes_per_value: int = 4
) -> int:
    b = _count("batch", batch, 0)
    t = _count("length", length, 0)
    n_layer_ = _count("n_layer", n_layer, 0)
    d = _count("d_model", d_model, 0)
    size = _count("bytes_per_value", bytes_per_value, 1)
    return int(np.prod(np.array([2, b, t, n_layer_, d, size], dtype=np.int64)))
