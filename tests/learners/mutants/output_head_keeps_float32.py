"""Mutant: output_head multiplies in the inputs' dtype: float32 h and table give float32 logits (contract: float64). From an adversarial tester's third held-out set (output_head_keeps_float32)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def output_head(h: Array, table: Array) -> Array:
    """Stage 3 (output projection): V logits per position from the tied (V, d) embedding.

    Shapes: h (T, d), table (V, d) -> (T, V): logits = h @ tableᵀ, so the head adds no
    parameter of its own (the chapter's "输出头（embedding 共享时）0"). ValueError when the
    widths differ (a width of 1 on either side included: nothing is broadcast).
    """
    h = np.asarray(h)  # (T, d)
    table = np.asarray(table)  # (V, d)
    if h.ndim != 2 or table.ndim != 2 or h.shape[1] != table.shape[1]:
        raise ValueError(f"need h (T, d) and table (V, d); got {h.shape}, {table.shape}")
    return h @ table.T
