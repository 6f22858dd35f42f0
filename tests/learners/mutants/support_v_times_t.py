"""Mutant: Counts V·T sequences instead of V^T."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def sequence_support_log10(vocab, length):
    return math.log10(as_int("vocab", vocab, 1) * as_int("length", length, 0))
