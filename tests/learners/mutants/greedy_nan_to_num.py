"""Mutant: greedy_token applies np.nan_to_num after the NaN check: +inf becomes the largest float and ties with it"""

# ruff: noqa  (a learner's file, kept as a learner writes it)
import math
import operator

import numpy as np
from _base import *


def greedy_token(logits):
    z = np.asarray(logits)
    if z.dtype.kind not in "biuf":
        z = np.asarray(logits, dtype=np.float64)
    if z.ndim != 1 or z.size == 0 or (z.dtype.kind == "f" and np.isnan(z).any()):
        raise ValueError("logits must be a non-empty vector without NaN")
    if z.dtype.kind == "f":
        z = np.nan_to_num(z)
    return int(np.argmax(z))
