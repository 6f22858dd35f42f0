"""Correct, from an adversarial tester's alternatives (alt_exact_ints): greedy_token compares in
the logits' own dtype (no float64 cast); giant_mlp via exact big ints."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from collections.abc import Callable, Sequence
from typing import Literal

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


def giant_mlp_parameter_log10(
    vocab: int,
    length: int,
    hidden: int,
    *,
    sequence_support_log10: Callable[[int, int], float] = sequence_support_log10,
) -> float:
    """Stage 2: log10 of the first layer of an MLP whose input is one-hot over V^T sequences.

    Its weights only, a (V^T, hidden) matrix: log10(V^T · hidden) = T·log10 V + log10 hidden
    (no biases: they would add ``hidden`` to a count of 10^4704). hidden >= 1, integers as for
    sequence_support_log10.
    """
    hidden = _integer("hidden", hidden, 1)
    vocab = _integer("vocab", vocab, 1)
    length = _integer("length", length, 0)
    if length * vocab.bit_length() > 2_000_000:
        return sequence_support_log10(vocab, length) + math.log10(hidden)
    return math.log10(vocab**length * hidden)


def greedy_token(logits: Array) -> int:
    """Stage 6 (T = 0): greedy decoding, the index of the largest logit (ties: the lowest).

    This is the separate path the chapter means: softmax_temperature refuses T = 0, and
    greedy decoding never forms a distribution at all. Returns a Python int; ValueError for
    logits with a NaN (no token ranks first) or no logits at all (−inf entries are fine).
    """
    z = np.asarray(logits)  # (V,), compared in its own dtype (ints exactly)
    if z.ndim != 1 or z.shape[0] == 0:
        raise ValueError(f"logits must be a non-empty vector, got shape {z.shape}")
    if z.dtype.kind == "f" and np.any(np.isnan(z)):
        raise ValueError("logits contain NaN; no token ranks first")
    return int(np.argmax(z))  # argmax returns the first of equal maxima
