"""Mutant: Returns MiB (a float) where the contract asks for bytes."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    b, t, v = as_int("batch", batch, 0), as_int("length", length, 0), as_int("vocab", vocab, 0)
    return b * t * v * as_int("bytes_per_value", bytes_per_value, 1) / 2**20
