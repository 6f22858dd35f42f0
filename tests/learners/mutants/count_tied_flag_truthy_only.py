"""Mutant: Validates tied with `tied not in (True, False)`, which lets the ints 0 and 1 through
(they compare equal to the bools). From an adversarial tester's second held-out set (count_tied_flag_truthy_only)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_count = transformer_parameter_count


def transformer_parameter_count(
    vocab,
    d_model,
    n_layer,
    d_ff,
    context_length,
    *,
    n_head=None,
    positions="none",
    biases=False,
    layernorm=False,
    tied=True,
):
    if tied not in (True, False):
        raise ValueError("tied must be a bool")
    return _correct_count(
        vocab,
        d_model,
        n_layer,
        d_ff,
        context_length,
        n_head=n_head,
        positions=positions,
        biases=biases,
        layernorm=layernorm,
        tied=bool(tied),
    )
