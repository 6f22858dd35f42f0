"""Sizes the giant MLP's input as one token's one-hot of width V."""

import math


def giant_mlp_parameter_log10(vocab, length, hidden, *, sequence_support_log10=None):
    return math.log10(vocab) + math.log10(hidden)
