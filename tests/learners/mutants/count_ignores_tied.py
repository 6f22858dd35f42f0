"""Mutant: Never counts an output head: tied=False is ignored."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_count = transformer_parameter_count


def transformer_parameter_count(vocab, d_model, n_layer, d_ff, context_length, **kwargs):
    table = _correct_count(vocab, d_model, n_layer, d_ff, context_length, **kwargs)
    table["total"] -= table["head"]
    table["head"] = 0
    return table
