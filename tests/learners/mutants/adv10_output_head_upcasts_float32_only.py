"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: output_head upcasts only float32: float16 h and table are computed in float16."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# output_head widens only float32: float16 h and table give float16 logits
def output_head(h, table):
    h, table = np.asarray(h), np.asarray(table)
    if h.dtype == np.float32 or h.dtype.kind in "iu":
        h = h.astype(np.float64)
    if table.dtype == np.float32 or table.dtype.kind in "iu":
        table = table.astype(np.float64)
    if h.ndim != 2 or table.ndim != 2 or 0 in h.shape or 0 in table.shape:
        raise ValueError("h (T, d), table (V, d)")
    if h.shape[1] != table.shape[1]:
        raise ValueError("h and table must have the same width")
    return h @ table.T
