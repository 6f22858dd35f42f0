"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: sequence_support_log10 takes np.log10 of the vocabulary, which raises TypeError for an exact integer past int64 (V = 2**64 + 1)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from _base import *
import numpy as np


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


def sequence_support_log10(vocab: int, length: int) -> float:
    """Stage 1: log10 |S| = log10 V^T, the number of length-T sequences over V tokens.

    V^T itself has thousands of digits, so it is never formed: log10 V^T = T log10 V.
    vocab >= 1 and length >= 0 are integers (Python or NumPy); anything else is a ValueError,
    each checked whatever the other is: V = 0 at T = 0 and V = 1 at T = -1 are refused too.
    """
    vocab = _integer("vocab", vocab, 1)
    length = _integer("length", length, 0)
    return float(length * np.log10(vocab))
