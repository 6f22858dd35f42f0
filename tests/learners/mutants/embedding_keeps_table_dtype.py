"""Mutant: embedding_lookup returns table[tokens] in the table's dtype: a float32 table gives float32 rows (contract: float64). From an adversarial tester's third held-out set (embedding_keeps_table_dtype)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def embedding_lookup(tokens: NDArray[np.integer], table: Array) -> Array:
    """Stage 3 (embedding): row ``tokens[t]`` of the (V, d) table for each position t.

    Shapes: tokens (T,) integer ids in 0..V-1, table (V, d) -> (T, d). ValueError for ids
    that are not integers (a float array, even of whole numbers such as 2.0: never rounded
    or cast; a boolean array, which is a mask, not ids), ids that are not a vector (a 0-d id
    such as np.int64(3) included), an id outside 0..V-1, or a table that is not (V, d). An
    empty vector is T = 0, whatever its dtype (np.array([]) and [] included): (0, d).
    """
    ids = np.asarray(tokens)  # (T,)
    table = np.asarray(table)  # (V, d)
    if table.ndim != 2:
        raise ValueError(f"table must be (V, d), got {table.shape}")
    if ids.ndim != 1 or not (ids.size == 0 or np.issubdtype(ids.dtype, np.integer)):
        raise ValueError(f"tokens must be a vector of integer ids, got {ids.dtype} {ids.shape}")
    if ids.size and (ids.min() < 0 or ids.max() >= table.shape[0]):
        raise ValueError(f"token ids must be in 0..{table.shape[0] - 1}")
    if ids.size == 0:  # T = 0, whatever the empty vector's dtype (np.array([]) is float64)
        return np.zeros((0, table.shape[1]))  # (0, d)
    return table[ids]
