"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: sequence_support_log10 takes np.log10(float(vocab)): V = 2**2000 overflows."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def sequence_support_log10(vocab, length):
    vocab = as_int("vocab", vocab, 1)
    length = as_int("length", length, 0)
    return length * float(np.log10(float(vocab)))
