"""Adds the input width V^T and the hidden width.

The scaffold's reference giant_mlp_parameter_log10() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import math


def giant_mlp_parameter_log10(
    vocab: int,
    length: int,
    hidden: int,
    *,
    sequence_support_log10: Callable[[int, int], float] = sequence_support_log10,
) -> float:
    hidden = _integer("hidden", hidden, 1)
    vocab = _integer("vocab", vocab, 1)
    length = _integer("length", length, 0)
    return math.log10(vocab**length + hidden)
