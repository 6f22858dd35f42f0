"""Mutant: transformer_parameter_count accepts a flag only when ``type(flag) is bool``, so
NumPy's bools (np.True_, np.False_) are refused. The contract (decided in issue 22): NumPy
bools are True and False, as NumPy integers are integers. Caught by the NumPy-bool case of
contract.transformer-parameter-count."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
from _base import *

_reference_count = transformer_parameter_count


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
    for name, flag in (("biases", biases), ("layernorm", layernorm), ("tied", tied)):
        if type(flag) is not bool:
            raise ValueError(f"{name} must be True or False")
    return _reference_count(
        vocab,
        d_model,
        n_layer,
        d_ff,
        context_length,
        n_head=n_head,
        positions=positions,
        biases=biases,
        layernorm=layernorm,
        tied=tied,
    )
