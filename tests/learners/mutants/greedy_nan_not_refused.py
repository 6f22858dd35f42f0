"""Mutant: Never checks for NaN: np.argmax then points at the NaN."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def greedy_token(logits):
    z = np.asarray(logits, dtype=np.float64)
    if z.ndim != 1 or z.size == 0:
        raise ValueError("logits must be a non-empty vector")
    return int(np.argmax(z))
