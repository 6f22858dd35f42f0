"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: linear_attention upcasts only float32: float16 q, k, v are computed in float16."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def linear_attention(q, k, v):
    out = _base.linear_attention(q, k, v)
    if all(np.asarray(a).dtype == np.float16 for a in (q, k, v)):  # <- only float32 upcast
        return out.astype(np.float16).astype(np.float64)  # float16's precision
    return out
