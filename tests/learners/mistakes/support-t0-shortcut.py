"""Returns 0.0 for length 0 before checking vocab.

The scaffold's reference sequence_support_log10() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821

import math


def sequence_support_log10(vocab: int, length: int) -> float:
    if length == 0:
        return 0.0  # 0^0 = 1: the empty sequence, whatever V is
    vocab = _integer("vocab", vocab, 1)
    length = _integer("length", length, 0)
    return length * math.log10(vocab)
