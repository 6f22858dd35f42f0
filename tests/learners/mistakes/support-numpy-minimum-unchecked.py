"""Checks the minimums of Python ints only.

The scaffold's reference sequence_support_log10() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import math


def sequence_support_log10(vocab: int, length: int) -> float:
    if isinstance(vocab, int) and vocab < 1:
        raise ValueError("vocab must be >= 1")
    if isinstance(length, int) and length < 0:
        raise ValueError("length must be >= 0")
    vocab = _integer("vocab", vocab, -(2**63))
    length = _integer("length", length, -(2**63))
    return length * math.log10(vocab)
