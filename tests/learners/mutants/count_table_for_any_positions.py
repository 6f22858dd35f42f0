"""Mutant: Counts a position table for every kind of position, not only a learned one."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_count = transformer_parameter_count


def transformer_parameter_count(
    vocab, d_model, n_layer, d_ff, context_length, *, positions="none", **kw
):
    table = _correct_count(vocab, d_model, n_layer, d_ff, context_length, positions=positions, **kw)
    if positions != "none" and positions != "learned":
        extra = as_int("context_length", context_length, 0) * as_int("d_model", d_model, 1)
        table["position_table"] += extra
        table["total"] += extra
    return table
