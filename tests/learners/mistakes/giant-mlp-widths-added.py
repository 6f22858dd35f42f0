"""Adds the input and hidden widths instead of multiplying them."""

import math


def giant_mlp_parameter_log10(vocab, length, hidden, *, sequence_support_log10=None):
    return math.log10(vocab**length + hidden)
