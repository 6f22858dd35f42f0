"""From an adversarial tester's twelfth held-out set (a false pass, now caught): BUGGY: output_head casts only float inputs to float64: an int64 h and table multiply in int64 and wrap."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def output_head(h, table):
    out = _base.output_head(h, table)  # the base's checks
    h, table = np.asarray(h), np.asarray(table)
    if h.dtype.kind in "iu" and table.dtype.kind in "iu":  # <- "integers are exact"
        return h @ table.T
    return out
