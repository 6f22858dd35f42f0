"""Stages 1-2: the support V^T, the chain rule, and the two ends of the structure axis."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from checks.registry import subject


@subject("sequence_support_log10")
def sequence_support_log10(vocab: int, length: int) -> float:
    """Stage 1: log10 |S| = log10 V^T, the number of length-T sequences over V tokens.

    V^T itself has thousands of digits, so it is never formed: log10 V^T = T log10 V.
    """
    if vocab < 1 or length < 0:
        raise ValueError(f"need vocab >= 1 and length >= 0, got vocab={vocab}, length={length}")
    return length * math.log10(vocab)


@subject("chain_rule_nll")
def chain_rule_nll(joint: NDArray[np.float64], tokens: Sequence[int]) -> float:
    """Stage 1: -log P(x_1..x_T) as the sum of -log P(x_t | x_<t), from a joint table.

    ``joint`` has shape (V,) * T and sums to 1; the conditionals are ratios of marginals,
    P(x_t | x_<t) = P(x_<=t) / P(x_<t), which is exactly the chain rule.
    """
    joint = np.asarray(joint, dtype=np.float64)
    t_len = joint.ndim
    if len(tokens) != t_len:
        raise ValueError(f"tokens has length {len(tokens)}, the joint table has T={t_len}")
    nll = 0.0
    prefix_mass = 1.0
    for t in range(1, t_len + 1):
        # marginal over the first t tokens: sum out positions t..T-1
        marginal = joint.sum(axis=tuple(range(t, t_len))) if t < t_len else joint  # (V,)*t
        mass = float(marginal[tuple(tokens[:t])])
        nll -= math.log(mass / prefix_mass)
        prefix_mass = mass
    return nll


@subject("giant_mlp_parameter_log10", uses=("sequence_support_log10",))
def giant_mlp_parameter_log10(
    vocab: int,
    length: int,
    hidden: int,
    *,
    sequence_support_log10: Callable[[int, int], float] = sequence_support_log10,
) -> float:
    """Stage 2: log10 of the first layer of an MLP whose input is one-hot over V^T sequences.

    Weights (V^T x hidden) plus biases (hidden): log10(hidden * (V^T + 1)), where the +1
    changes nothing at this scale, so it is dropped to stay in log space.
    """
    if hidden < 1:
        raise ValueError(f"hidden must be >= 1, got {hidden}")
    return sequence_support_log10(vocab, length) + math.log10(hidden)


@subject("averaging_model")
def averaging_model(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """Stage 2, the 'all structure' end: each position outputs the mean of its prefix.

    It takes no weights at all: every decision is written into the structure.
    """
    x = np.asarray(x, dtype=np.float64)  # (T, d)
    t_len = x.shape[0]
    counts = np.arange(1, t_len + 1, dtype=np.float64)[:, None]  # (T, 1)
    mean: NDArray[np.float64] = np.cumsum(x, axis=0) / counts  # (T, d)
    return mean
