"""Counts the first layer's biases too.

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
    support = sequence_support_log10(vocab, length)
    return support + math.log10(hidden) + math.log10(1.0 + 10.0 ** (-support))  # (V^T + 1)·hidden
