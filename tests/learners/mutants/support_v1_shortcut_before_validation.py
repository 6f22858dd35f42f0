"""Mutant: Returns 0.0 for vocab = 1 before checking length, so V = 1, T = -1 gives 0.0, not a
ValueError. From an adversarial tester's second held-out set (support_v1_shortcut_before_validation)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_support = sequence_support_log10


def sequence_support_log10(vocab, length):
    if vocab == 1:
        return 0.0  # one token: a single sequence of any length
    return _correct_support(vocab, length)
