"""Widths broadcast through an elementwise product.

The scaffold's reference output_head() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import numpy as np


def output_head(h: Array, table: Array) -> Array:
    h = np.asarray(h, dtype=np.float64)  # (T, d)
    table = np.asarray(table, dtype=np.float64)  # (V, d)
    if (
        h.ndim == 2
        and table.ndim == 2
        and h.shape[1] != table.shape[1]
        and 1 in (h.shape[1], table.shape[1])
    ):
        return (h[:, None, :] * table[None, :, :]).sum(axis=-1)  # (T, V), a width of 1 spread
    if h.ndim != 2 or table.ndim != 2 or h.shape[1] != table.shape[1]:
        raise ValueError(f"need h (T, d) and table (V, d); got {h.shape}, {table.shape}")
    return h @ table.T
