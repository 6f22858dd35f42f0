"""Mutant: Requires vocab >= 1 (as sequence_support_log10 does); the contract allows vocab = 0 here
(0 bytes). From an adversarial tester's second held-out set (logits_vocab_min1)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_bytes = logits_memory_bytes


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    as_int("vocab", vocab, 1)
    return _correct_bytes(batch, length, vocab, bytes_per_value)
