"""Correct, from an adversarial tester's third held-out set (chain_telescoped): chain_rule_nll as -ln P(x_1..x_T) read straight from the joint (the chain rule's product telescopes), +inf when it is 0."""

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


def chain_rule_nll(joint, tokens):  # noqa: F811
    joint_arr = np.asarray(joint, dtype=np.float64)
    t_len = joint_arr.ndim
    if t_len < 1 or joint_arr.size == 0 or len(set(joint_arr.shape)) != 1:
        raise ValueError("joint must be (V,) * T")
    if not np.all(np.isfinite(joint_arr)) or np.any(joint_arr < 0):
        raise ValueError("joint must be finite and non-negative")
    if abs(float(joint_arr.sum()) - 1.0) > 1e-6:
        raise ValueError("joint must sum to 1")
    if len(tokens) != t_len:
        raise ValueError("tokens of the wrong length")
    index = tuple(_integer("token", x, 0) for x in tokens)
    if any(x >= joint_arr.shape[0] for x in index):
        raise ValueError("token out of range")
    mass = float(joint_arr[index])
    return math.inf if mass == 0.0 else -math.log(mass)
