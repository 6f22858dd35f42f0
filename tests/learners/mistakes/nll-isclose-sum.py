"""Checks the sum with np.isclose.

The scaffold's reference chain_rule_nll() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import math

import numpy as np


def chain_rule_nll(joint: NDArray[np.float64], tokens: Sequence[int]) -> float:
    joint = np.asarray(joint, dtype=np.float64)
    t_len = joint.ndim
    if t_len < 1 or joint.size == 0 or len(set(joint.shape)) != 1:
        raise ValueError(f"joint must have shape (V,) * T with V, T >= 1, got {joint.shape}")
    if not np.all(np.isfinite(joint)) or np.any(joint < 0):
        raise ValueError("joint must hold finite, non-negative probabilities")
    if not np.isclose(float(joint.sum()), 1.0):
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
        if mass == 0.0:  # a prefix the distribution never produces: probability 0
            return math.inf
        nll -= math.log(mass / prefix_mass)
        prefix_mass = mass
    return nll
