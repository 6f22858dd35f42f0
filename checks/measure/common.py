"""Configurations and helpers shared by several checks."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

import numpy as np

from runner.pack import Implementation

# GPT-2 small under the chapter's accounting (chapter 8: no biases, tied embedding).
CHAPTER_GPT2: dict[str, Any] = {
    "vocab": 50257,
    "d_model": 768,
    "n_layer": 12,
    "d_ff": 3072,
    "context_length": 1000,
    "n_head": 12,
}


# -- worst cases that keep a NaN ---------------------------------------------------------------
# Python's max and min keep whichever of a NaN and a number they meet first (max(0.0, nan) is
# 0.0, max(nan, 0.0) is nan): a worst difference taken with them loses a NaN answer, and a stub
# returning NaN arrays passed four claims that way (an attack round, 2026-12-07). Every worst
# or best case of what an implementation returned is taken with these: NaN if any value is.
def largest(values: Iterable[float]) -> float:
    """The largest of ``values`` (at least one; ints stay ints), NaN when one is NaN."""
    kept = list(values)
    if any(v != v for v in kept):  # NaN, and only NaN, differs from itself
        return math.nan
    return max(kept)


def smallest(values: Iterable[float]) -> float:
    """The smallest of ``values`` (at least one), NaN when one of them is NaN."""
    kept = list(values)
    if any(v != v for v in kept):
        return math.nan
    return min(kept)


def finite(*arrays: Any) -> bool:
    """Whether every array holds finite numbers only. A check that moves an input and asks
    whether an output changed cannot tell from a NaN (which differs from itself) or an
    infinity (which does not): where it meets one, its counts are NaN."""
    return all(bool(np.all(np.isfinite(a))) for a in arrays)


def whole(value: Any) -> float:
    """A count or an index an implementation returned, as an int when it is a whole number
    (an int or a NumPy integer, or a finite float or 0-d array with no fractional part), NaN
    for any other number, which no tolerance accepts; TypeError for what is no number (a
    bool, a string, a dict: the check cannot use it, and says so). ``int()`` would truncate
    1,234.999 to a right-looking 1,234 (an attack round, 2026-12-07) and read "1234" or True
    as a count."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_):
        return int(value)
    if isinstance(value, float | np.floating):
        return int(value) if math.isfinite(value) and value == int(value) else math.nan
    raise TypeError(f"a count must be a whole number, not {type(value).__name__}")


def log10_total(impl: Implementation, config: dict[str, Any]) -> float:
    total = whole(impl["transformer_parameter_count"](**config)["total"])
    return math.log10(total) if total > 0 else math.nan


# -- weights of its own: what a run can see of them ------------------------------------------
# A signature shows only the arguments a function takes; weights read from anywhere else (a
# global, a closure) never appear there. What a run can see is the function of the inputs:
# a function with no weight matrix of its own acting on features commutes with permuting the
# features (reordering d's columns permutes nothing else), up to the rounding of sums taken
# in another order; one that multiplies by a weight matrix, wherever it is stored, generally
# does not. These residues are 0 (to rounding) for weight-free code and large otherwise; a
# scalar weight (a hidden temperature) commutes and is caught by the claims that compare
# the output with the weight-free formula.
def permutation_residue(
    fn: Callable[..., Any],
    arrays: tuple[Any, ...],
    moves: tuple[Hashable | None, ...],
    rng: np.random.Generator,
    out_axis: Hashable | None = None,
) -> float:
    """max |fn(permuted inputs) − permuted fn(inputs)|: ``moves[i]`` names the group whose
    permutation array i's last axis takes (None: left as it is; arrays of one group share
    one permutation); ``out_axis`` the group the output's last axis follows (None: the
    output must not move). inf when the shapes differ, NaN when an output is not finite."""
    sizes: dict[Hashable, int] = {}
    for a, group in zip(arrays, moves, strict=True):
        if group is not None:
            sizes[group] = np.shape(a)[-1]
    perms = {group: _moving_permutation(rng, n) for group, n in sizes.items()}
    moved = tuple(
        a if group is None else np.asarray(a)[..., perms[group]]
        for a, group in zip(arrays, moves, strict=True)
    )
    base = np.asarray(fn(*arrays), dtype=np.float64)
    after = np.asarray(fn(*moved), dtype=np.float64)
    expected = base if out_axis is None else base[..., perms[out_axis]]
    if after.shape != expected.shape:
        return math.inf
    with np.errstate(invalid="ignore"):
        return float(np.max(np.abs(after - expected)))


def _moving_permutation(rng: np.random.Generator, n: int) -> np.ndarray[Any, Any]:
    """A random permutation of 0..n-1 that moves something when n > 1 (the identity would
    see no weight at all: at n = 3 a sixth of the draws are it)."""
    perm = rng.permutation(n)
    if n > 1 and np.array_equal(perm, np.arange(n)):
        perm = np.roll(perm, 1)
    return perm


def increment_exponent(xs: Sequence[int], ys: Sequence[float]) -> float:
    """log(Δy₂ / Δy₁) / log(Δx₂ / Δx₁) over the last three points: the exponent p of the
    part of y that grows (y = a + b·x^p); 0 where y does not grow at the last step (nothing
    grows: a memo's hit costs what it costs whatever x, and a correct memoized function
    read NaN and failed, a correct-learner round, 2026-12-07); NaN where it grows at the
    last step only, from a y that fell (no exponent fits)."""
    if len(xs) < 3:
        return math.nan
    (x0, x1, x2), (y0, y1, y2) = xs[-3:], ys[-3:]
    if not all(math.isfinite(y) and y > 0 for y in (y0, y1, y2)):
        return math.nan  # a peak not measured
    if y2 <= y1:
        return 0.0
    if not y1 > y0:
        return math.nan
    return math.log((y2 - y1) / (y1 - y0)) / math.log((x2 - x1) / (x1 - x0))
