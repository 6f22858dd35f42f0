"""Mutant: With biases, counts the attention's but forgets the FFN's."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_count = transformer_parameter_count


def transformer_parameter_count(
    vocab, d_model, n_layer, d_ff, context_length, *, biases=False, **kw
):
    table = _correct_count(vocab, d_model, n_layer, d_ff, context_length, biases=biases, **kw)
    if biases:
        missing = as_int("d_ff", d_ff, 1) + as_int("d_model", d_model, 1)
        table["ffn_per_layer"] -= missing
        table["per_layer"] -= missing
        table["total"] -= as_int("n_layer", n_layer, 0) * missing
    return table
