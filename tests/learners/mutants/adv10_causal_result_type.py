"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: causal_masked_attention computes in np.result_type: long double scores give long double weights."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# causal_masked_attention computes in np.result_type(scores, float64): longdouble scores give longdouble weights
def causal_masked_attention(scores):
    s0 = np.asarray(scores)
    s = s0.astype(np.result_type(s0.dtype, np.float64))
    if s.ndim < 2 or s.shape[-1] != s.shape[-2] or s.shape[-1] == 0:
        raise ValueError("scores must be (..., T, T)")
    t = s.shape[-1]
    visible = np.tril(np.ones((t, t), dtype=bool))
    return softmax_rows(np.where(visible, s, -np.inf))
