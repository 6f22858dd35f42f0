"""Mutant: averaging_model keeps float16 (converts only integer/float32 x)"""

# ruff: noqa  (a learner's file, kept as a learner writes it)
import math
import operator

import numpy as np
from _base import *


def averaging_model(x):
    x = np.asarray(x)
    if x.dtype in (np.float32,) or x.dtype.kind in "iub":
        x = x.astype(np.float64)
    if x.ndim != 2 or x.shape[0] == 0 or x.shape[1] == 0:
        raise ValueError("x must be (T, d)")
    return np.cumsum(x, axis=0) / np.arange(1, x.shape[0] + 1)[:, None]
