"""Mutant: Requires batch >= 1; the contract allows batch = 0 (0 bytes). From an adversarial tester's second held-out set (logits_batch_min1)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_bytes = logits_memory_bytes


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    as_int("batch", batch, 1)
    return _correct_bytes(batch, length, vocab, bytes_per_value)
