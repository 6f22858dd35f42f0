"""Mutant: Checks vocab and hidden but not the length: T = -1 gives a log10 below 0 instead of
ValueError. From an adversarial tester's held-out set (v_giant_no_T_check)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def giant_mlp_parameter_log10(vocab, length, hidden):
    hidden = as_int("hidden", hidden, 1)
    v = as_int("vocab", vocab, 1)
    return int(length) * math.log10(v) + math.log10(hidden)  # a negative length is not refused
