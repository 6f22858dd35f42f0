"""Mutant: Forgets the batch dimension."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    as_int("batch", batch, 0)
    return (
        as_int("length", length, 0)
        * as_int("vocab", vocab, 0)
        * as_int("bytes", bytes_per_value, 1)
    )
