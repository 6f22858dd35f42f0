"""Mutant: Lower-cases positions, accepting "Learned" or "ROPE" where the contract names four
lower-case strings and refuses anything else. From an adversarial tester's second held-out set (count_positions_case_insensitive)."""

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
    return _correct_count(
        vocab,
        d_model,
        n_layer,
        d_ff,
        context_length,
        n_head=n_head,
        positions=str(positions).lower(),
        biases=biases,
        layernorm=layernorm,
        tied=tied,
    )
