"""Mutant: Takes the last of equal maxima instead of the first."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def greedy_token(logits):
    z = np.asarray(logits, dtype=np.float64)
    if z.ndim != 1 or z.size == 0 or np.isnan(z).any():
        raise ValueError("logits must be a non-empty vector without NaN")
    return int(z.size - 1 - np.argmax(z[::-1]))
