"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: embedding_lookup returns (0, d) for any empty ids before checking they are a vector: ids of shape (2, 0) are accepted where the contract raises ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from _base import *
import numpy as np


def embedding_lookup(tokens: NDArray[np.integer], table: Array) -> Array:
    """Stage 3 (embedding): row ``tokens[t]`` of the (V, d) table for each position t.

    Shapes: tokens (T,) integer ids in 0..V-1, table (V, d) -> (T, d). ValueError for ids
    that are not integers (a float array, even of whole numbers such as 2.0: never rounded
    or cast; a boolean array, which is a mask, not ids), ids that are not a vector (a 0-d id
    such as np.int64(3) included), an id outside 0..V-1, or a table that is not (V, d). An
    empty vector is T = 0, whatever its dtype (np.array([]) and [] included): (0, d). The
    rows are float64 whatever the table's dtype (a float32 or integer table gives float64 rows).
    """
    ids = np.asarray(tokens)  # (T,)
    table = np.asarray(table, dtype=np.float64)  # (V, d)
    if table.ndim != 2:
        raise ValueError(f"table must be (V, d), got {table.shape}")
    if ids.size == 0:  # T = 0, whatever the empty vector's dtype (np.array([]) is float64)
        return np.zeros((0, table.shape[1]))  # (0, d)
    if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"tokens must be a vector of integer ids, got {ids.dtype} {ids.shape}")
    if ids.min() < 0 or ids.max() >= table.shape[0]:
        raise ValueError(f"token ids must be in 0..{table.shape[0] - 1}")
    return table[ids]
