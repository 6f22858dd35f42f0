"""Mutant: Returns 0.0 for length 0 before checking that vocab >= 1, so V = 0, T = 0 (0^0 = 1
sequence) is accepted instead of refused. From an adversarial tester's second held-out set (support_v0_t0_allowed)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_support = sequence_support_log10


def sequence_support_log10(vocab, length):
    if as_int("length", length, 0) == 0 and as_int("vocab", vocab, 0) >= 0:
        return 0.0  # 0^0 = 1: one (empty) sequence
    return _correct_support(vocab, length)
