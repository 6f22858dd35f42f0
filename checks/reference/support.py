"""Stages 1-2: the support V^T, the chain rule, and the two ends of the structure axis."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from checks.pack import subject
from checks.reference._args import _integer


@subject("sequence_support_log10")
def sequence_support_log10(vocab: int, length: int) -> float:
    """Stage 1: log10 |S| = log10 V^T, the number of length-T sequences over V tokens.

    V^T itself has thousands of digits, so it is never formed: log10 V^T = T log10 V.
    vocab >= 1 and length >= 0 are integers (Python or NumPy); anything else is a ValueError,
    each checked whatever the other is: V = 0 at T = 0 and V = 1 at T = -1 are refused too.
    """
    vocab = _integer("vocab", vocab, 1)
    length = _integer("length", length, 0)
    return length * math.log10(vocab)


@subject("chain_rule_nll")
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
        if mass == 0.0:  # a prefix the distribution never produces: probability 0
            return math.inf
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

    Its weights only, a (V^T, hidden) matrix: log10(V^T · hidden) = T·log10 V + log10 hidden
    (no biases: they would add ``hidden`` to a count of 10^4704). hidden >= 1, integers as for
    sequence_support_log10.
    """
    hidden = _integer("hidden", hidden, 1)
    return sequence_support_log10(vocab, length) + math.log10(hidden)


@subject("averaging_model")
def averaging_model(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """Stage 2, the 'all structure' end: each position outputs the mean of its prefix.

    It takes no weights at all: every decision is written into the structure. x is (T, d)
    with T, d >= 1 (else ValueError); the output is (T, d) float64 (float32 or integer x
    included, the running sum in float64), row t the mean of rows 0..t.
    The chapter says its compute is proportional to T: a running sum is. The claims measure
    the call's peak memory from T = 512 to 2,048, whose growing part must grow linearly (the
    exponent of the peak's increments at most 1.3; a fixed buffer reused from chunk to chunk
    is fine): no (T, T) averaging matrix (np.tril(...) @ x is the same function and fails).
    """
    x = np.asarray(x, dtype=np.float64)  # (T, d)
    if x.ndim != 2 or 0 in x.shape:
        raise ValueError(f"x must have shape (T, d) with T, d >= 1, got {x.shape}")
    t_len = x.shape[0]
    counts = np.arange(1, t_len + 1, dtype=np.float64)[:, None]  # (T, 1)
    mean: NDArray[np.float64] = np.cumsum(x, axis=0) / counts  # (T, d)
    return mean
