"""Mutant: Multiplies the sizes as floats (np.prod of a float array): a float, not a count."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    sizes = [as_int("batch", batch, 0), as_int("length", length, 0), as_int("vocab", vocab, 0)]
    return np.prod(np.array([*sizes, as_int("bytes_per_value", bytes_per_value, 1)], dtype=float))
