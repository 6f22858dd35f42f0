"""No check below 0 on the ids.

The scaffold's reference embedding_lookup() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import numpy as np


def embedding_lookup(tokens: NDArray[np.integer], table: Array) -> Array:
    ids = np.asarray(tokens)  # (T,)
    table = np.asarray(table, dtype=np.float64)  # (V, d)
    if table.ndim != 2:
        raise ValueError(f"table must be (V, d), got {table.shape}")
    if ids.ndim != 1 or not (ids.size == 0 or np.issubdtype(ids.dtype, np.integer)):
        raise ValueError(f"tokens must be a vector of integer ids, got {ids.dtype} {ids.shape}")
    if ids.size and ids.max() >= table.shape[0]:
        raise ValueError(f"token ids must be in 0..{table.shape[0] - 1}")
    if ids.size == 0:  # T = 0, whatever the empty vector's dtype (np.array([]) is float64)
        return np.zeros((0, table.shape[1]))  # (0, d)
    return table[ids]  # (T, d), a copy (fancy indexing)
