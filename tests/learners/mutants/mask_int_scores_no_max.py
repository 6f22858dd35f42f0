"""Mutant: causal_masked_attention: integer scores take a path without the max subtraction"""

# ruff: noqa  (a learner's file, kept as a learner writes it)
import math
import operator

import numpy as np
from _base import *

_orig_mask = causal_masked_attention


def causal_masked_attention(scores):
    s = np.asarray(scores)
    if s.dtype.kind in "iu" and s.ndim >= 2 and s.shape[-1] == s.shape[-2] and s.shape[-1] > 0:
        t = s.shape[-1]
        e = np.exp(s.astype(np.float64)) * np.tril(np.ones((t, t)))
        return e / e.sum(axis=-1, keepdims=True)
    return _orig_mask(scores)
