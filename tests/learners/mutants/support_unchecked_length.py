"""Mutant: Checks V but forgets that a length cannot be negative."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def sequence_support_log10(vocab, length):
    return length * math.log10(as_int("vocab", vocab, 1))
