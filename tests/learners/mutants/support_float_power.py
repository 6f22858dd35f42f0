"""Mutant: Forms V^T as a float first: it overflows long before T = 1000."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def sequence_support_log10(vocab, length):
    return math.log10(float(as_int("vocab", vocab, 1)) ** as_int("length", length, 0))
