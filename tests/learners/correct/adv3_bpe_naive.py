"""Correct, from an adversarial tester's third held-out set (bpe_naive): bpe_train recounting every adjacent pair before each merge (overlapping counts, smallest pair on ties)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def _byte_values(data: NDArray[np.integer] | Sequence[int]) -> list[int]:
    """The byte values of ``data`` (N,), or ValueError when it is not bytes."""
    arr = np.asarray(data)
    if arr.ndim != 1 or not (arr.size == 0 or np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(f"data must be a vector of byte values, got {arr.dtype} {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 255):
        raise ValueError("data must hold byte values 0..255")
    return [int(v) for v in arr]


def bpe_train(data, vocab_size):  # noqa: F811  (replaces the incremental one above)
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int | np.integer):
        raise ValueError(f"vocab_size must be an integer, got {vocab_size!r}")
    if vocab_size < 256:
        raise ValueError("vocab_size must be >= 256")
    ids = _byte_values(data)
    merges = []
    while len(merges) < vocab_size - 256:
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        best = min(counts, key=lambda p: (-counts[p], p))
        if counts[best] < 2:
            break
        ids = _bpe_replace(ids, best, 256 + len(merges))
        merges.append(best)
    return merges


def _bpe_replace(ids, pair, new):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
