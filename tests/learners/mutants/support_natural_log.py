"""Mutant: Natural logarithm where the chapter's figures are log10."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def sequence_support_log10(vocab, length):
    return as_int("length", length, 0) * math.log(as_int("vocab", vocab, 1))
