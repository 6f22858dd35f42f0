"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: output_head computes in np.result_type: long double h gives long double logits."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# output_head computes in np.result_type(h, table, float64): longdouble inputs give a longdouble result
def output_head(h, table):
    h, table = np.asarray(h), np.asarray(table)
    dt = np.result_type(h.dtype, table.dtype, np.float64)
    h, table = h.astype(dt), table.astype(dt)
    if h.ndim != 2 or table.ndim != 2 or 0 in h.shape or 0 in table.shape:
        raise ValueError("h (T, d), table (V, d)")
    if h.shape[1] != table.shape[1]:
        raise ValueError("h and table must have the same width")
    return h @ table.T
