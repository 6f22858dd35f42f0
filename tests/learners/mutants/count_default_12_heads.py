"""Mutant: Keeps n_head=12 as the default and checks it divides d_model, even when n_head is not given."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_count = transformer_parameter_count


def transformer_parameter_count(vocab, d_model, n_layer, d_ff, context_length, *, n_head=12, **kw):
    if as_int("d_model", d_model, 1) % as_int("n_head", n_head, 1):
        raise ValueError("n_head must divide d_model")
    return _correct_count(vocab, d_model, n_layer, d_ff, context_length, n_head=n_head, **kw)
