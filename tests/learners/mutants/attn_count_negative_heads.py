"""Mutant: attention_parameter_count refuses n_head == 0 only (a 'no division by zero' guard): n_head = -4 is accepted and gives 4d^2. From an adversarial tester's third held-out set (attn_count_negative_heads)."""

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


def attention_parameter_count(d_model: int, n_head: int) -> int:
    """Stage 4: H heads of width d/H each own (d, d/H) slices of W_Q, W_K, W_V; W_O is one
    (d, d) matrix applied to the concatenated heads: 3d² + d² = 4d², whatever H is.

    d_model >= 1 and n_head >= 1 are integers and n_head divides d_model (else ValueError).
    Returns a Python int, exact for any size.
    """
    d_model = _integer("d_model", d_model, 1)
    n_head = _integer("n_head", n_head, -(10**18))
    if n_head == 0:
        raise ValueError("n_head must not be 0")
    if d_model % n_head:
        raise ValueError(f"n_head={n_head} must divide d_model={d_model}")
    head = d_model // n_head
    qkv = n_head * 3 * d_model * head  # (d, d/H) for each of Q, K, V, per head
    out = d_model * d_model  # W_O: (H * d/H, d)
    return qkv + out
