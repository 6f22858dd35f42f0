"""Mutant: Multiplies NumPy integers as they come: int32 wraps around past 2^31."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    if batch < 0 or length < 0 or vocab < 0 or bytes_per_value < 1:
        raise ValueError("sizes must be >= 0")
    return batch * length * vocab * bytes_per_value
