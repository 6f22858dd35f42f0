"""Correct, from an adversarial tester's alternatives (alt_bpe): bpe_train, bpe_encode rewritten
independently from the contract."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from _base import *


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


def _byte_values(data: NDArray[np.integer] | Sequence[int]) -> list[int]:
    """The byte values of ``data`` (N,), or ValueError when it is not bytes."""
    arr = np.asarray(data)
    if arr.ndim != 1 or not (arr.size == 0 or np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(f"data must be a vector of byte values, got {arr.dtype} {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 255):
        raise ValueError("data must hold byte values 0..255")
    return [int(v) for v in arr]


def bpe_train(data, vocab_size):
    """A plain loop: count every adjacent pair, take the most frequent (ties: smallest pair)."""
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int | np.integer):
        raise ValueError("vocab_size")
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
        best = max(counts.values())
        if best < 2:
            break
        pair = min(p for p, c in counts.items() if c == best)
        new = 256 + len(merges)
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
                out.append(new)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
        merges.append(pair)
    return merges


def bpe_encode(data, merges):
    """GPT-2 style: repeatedly merge the present pair of lowest rank."""
    ranks = {}
    for r, m in enumerate(merges):
        if len(m) != 2:
            raise ValueError("merge")
        a = _integer("a", m[0], 0)
        b = _integer("b", m[1], 0)
        if a >= 256 + r or b >= 256 + r:
            raise ValueError("merge names a token not made yet")
        ranks.setdefault((a, b), r)
    ids = _byte_values(data)
    while len(ids) > 1:
        cands = [ranks[p] for p in zip(ids, ids[1:]) if p in ranks]
        if not cands:
            break
        r = min(cands)
        a, b = merges[r][0], merges[r][1]
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == a and ids[i + 1] == b:
                out.append(256 + r)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return ids
