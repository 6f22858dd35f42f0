"""Mutant: Takes any truthy value as True: biases='no' counts the biases, tied=None unties the
head, where the contract refuses a flag that is not a bool. From an adversarial tester's
held-out set (v_params_flags_truthy)."""

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
    # any truthy value is taken as True ("yes", 1, ...)
    return _correct_count(
        vocab,
        d_model,
        n_layer,
        d_ff,
        context_length,
        n_head=n_head,
        positions=positions,
        biases=bool(biases),
        layernorm=bool(layernorm),
        tied=bool(tied),
    )
