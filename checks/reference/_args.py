"""Argument rules shared by every reference function (the contract's "integer arguments").

One rule everywhere: an integer argument is a Python ``int`` or a NumPy integer, converted
with :func:`operator.index` to a Python ``int`` (so counts are exact, never wrapped around in
int32 or int64); a bool, a float (even ``2.0``) or anything else is refused with ValueError.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from numpy.typing import NDArray


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


def _flag(name: str, value: object) -> bool:
    """``value`` as a bool: True/False (or NumPy's), nothing else."""
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _rescaled(kept: NDArray[np.float64], empty: str) -> NDArray[np.float64]:
    """``kept`` (finite, >= 0) rescaled to sum to 1, or ValueError(``empty``) when it sums to
    0. Divided by its largest entry first, so finite entries whose sum overflows
    ([1e308, 1e308, 1]) still give [0.5, 0.5, ~0], never x / inf = 0."""
    top = kept.max()
    if not top > 0:
        raise ValueError(empty)
    with np.errstate(over="ignore"):  # the sum of finite entries may overflow to inf
        overflows = not np.isfinite(kept.sum())
    scaled = kept / top if overflows else kept  # (V,)
    return scaled / scaled.sum()  # type: ignore[no-any-return]


def _shares(e: NDArray[Any]) -> NDArray[Any]:
    """``e`` (..., V) divided by its sum over the last axis, in ``e``'s dtype: summed in
    float32 at least, since float16 holds sums up to 65,504 only (a row of 65,520 float16
    ones, a vocabulary of 100k, would sum to inf and every share round to 0)."""
    total = e.sum(axis=-1, keepdims=True, dtype=np.result_type(e.dtype, np.float32))
    return (e / total).astype(e.dtype)  # type: ignore[no-any-return]
