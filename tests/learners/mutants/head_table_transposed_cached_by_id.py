"""Mutant: output_head keeps the transposed table (a contiguous float64 copy) under the
table's id(), and holds the table: a tied embedding updated in place still gives the old
logits. Caught only by an accident of id() reuse before (a buggy-learner round,
2026-12-07)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *

_TRANSPOSED = {}


def output_head(h, table):
    if id(table) not in _TRANSPOSED:
        t = np.ascontiguousarray(np.asarray(table, dtype=np.float64).T)  # (d, V)
        _TRANSPOSED[id(table)] = (table, t)
    return _base.output_head(h, _TRANSPOSED[id(table)][1].T)
