"""Mutant: logits_memory_bytes refuses any bytes_per_value outside {1, 2, 4, 8} (dtype sizes), though the contract allows any integer >= 1. From an adversarial tester's third held-out set (logits_bytes_common_sizes_only)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def _integer(name: str, value: object, minimum: int) -> int:
    """``value`` as a Python int >= ``minimum``, or a ValueError naming the argument."""
    # bool is an int to Python, and np.bool_ was once an index: neither is a size
    if isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be an integer, got the boolean {value!r}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{name} must be an integer, got {value!r}") from None
    if number < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {number}")
    return number


def logits_memory_bytes(batch: int, length: int, vocab: int, bytes_per_value: int = 4) -> int:
    """Stage 7: B x T x V x bytes, the size of the (B, T, V) logits (FP32 = 4 bytes).

    batch, length, vocab >= 0 and bytes_per_value >= 1 are integers (Python or NumPy,
    else ValueError; a size of 0 is valid, 0 bytes); the product is an exact Python int,
    never wrapped around in int32.
    """
    batch = _integer("batch", batch, 0)
    length = _integer("length", length, 0)
    vocab = _integer("vocab", vocab, 0)
    bytes_per_value = _integer("bytes_per_value", bytes_per_value, 1)
    if bytes_per_value not in (1, 2, 4, 8):
        raise ValueError("bytes_per_value must be a dtype size: 1, 2, 4 or 8")
    return batch * length * vocab * bytes_per_value
