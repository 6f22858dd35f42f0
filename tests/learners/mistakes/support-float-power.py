"""Forms V^T as a float, then takes log10.

The scaffold's reference sequence_support_log10() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import math


def sequence_support_log10(vocab: int, length: int) -> float:
    vocab = _integer("vocab", vocab, 1)
    length = _integer("length", length, 0)
    return math.log10(math.pow(vocab, length))
