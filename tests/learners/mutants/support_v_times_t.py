"""Mutant: Counts V·T sequences instead of V^T."""

# ruff: noqa: F401, F403, F405, E501
import math

import numpy as np

from _base import *


def sequence_support_log10(vocab, length):
    return math.log10(as_int("vocab", vocab, 1) * as_int("length", length, 0))
