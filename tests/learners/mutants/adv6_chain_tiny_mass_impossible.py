"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: chain_rule_nll treats a prefix of probability below 1e-12 as impossible: joint [1 - 1e-13, 1e-13], tokens [1] gives inf instead of 29.93."""

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


def chain_rule_nll(joint: NDArray[np.float64], tokens: Sequence[int]) -> float:
    """Stage 1: -log P(x_1..x_T) as the sum of -log P(x_t | x_<t), from a joint table.

    ``joint`` has shape (V,) * T with T >= 1: finite, non-negative, summing to 1 within
    1e-6 (1 ± 5e-6 is refused, 1 ± 5e-7 and 1 ± 1e-8 accepted); a table of another shape is
    refused even when its size is V^T ((4, 1), (2, 1, 4)). ``tokens`` holds T integers in
    0..V-1.
    The conditionals are ratios of marginals, P(x_t | x_<t) = P(x_<=t) / P(x_<t), which is
    exactly the chain rule, and the empty prefix has probability 1: the product is the
    table's own entry, so a table summing to 1 ± 5e-7 gives −ln of its entry as given, never
    of the entry divided by the table's sum (the tolerance is room for rounding, not a table
    to renormalize; the two differ by up to 5e-7 nats). Computed in float64 (a float32 or
    integer table included). A sequence of probability 0 has an NLL of +inf; anything outside
    these rules is a ValueError.
    """
    joint = np.asarray(joint, dtype=np.float64)
    t_len = joint.ndim
    if t_len < 1 or joint.size == 0 or len(set(joint.shape)) != 1:
        raise ValueError(f"joint must have shape (V,) * T with V, T >= 1, got {joint.shape}")
    if not np.all(np.isfinite(joint)) or np.any(joint < 0):
        raise ValueError("joint must hold finite, non-negative probabilities")
    if abs(float(joint.sum()) - 1.0) > 1e-6:
        raise ValueError(f"joint must sum to 1, got {float(joint.sum())!r}")
    if len(tokens) != t_len:
        raise ValueError(f"tokens has length {len(tokens)}, the joint table has T={t_len}")
    vocab = joint.shape[0]
    index = tuple(_integer(f"tokens[{i}]", x, 0) for i, x in enumerate(tokens))
    if any(x >= vocab for x in index):
        raise ValueError(f"tokens must lie in 0..{vocab - 1}, got {list(index)}")
    nll = 0.0
    prefix_mass = 1.0
    for t in range(1, t_len + 1):
        # marginal over the first t tokens: sum out positions t..T-1
        marginal = joint.sum(axis=tuple(range(t, t_len))) if t < t_len else joint  # (V,)*t
        mass = float(marginal[index[:t]])
        if mass < 1e-12:  # a prefix the distribution (numerically) never produces
            return math.inf
        nll -= math.log(mass / prefix_mass)
        prefix_mass = mass
    return nll
