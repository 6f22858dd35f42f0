"""Mutant: softmax_temperature: integer logits take a separate path without the max subtraction"""

# ruff: noqa  (a learner's file, kept as a learner writes it)
import math
import operator

import numpy as np
from _base import *

_orig_st4 = softmax_temperature


def softmax_temperature(logits, temperature):
    z = np.asarray(logits)
    if (
        z.dtype.kind in "iu"
        and z.size
        and isinstance(temperature, int | float | np.integer | np.floating)
        and not isinstance(temperature, bool)
        and math.isfinite(temperature)
        and temperature > 0
    ):
        e = np.exp(z.astype(np.float64) / temperature)
        return e / e.sum(axis=-1, keepdims=True)
    return _orig_st4(logits, temperature)
