"""From an adversarial tester's nineteenth held-out set (a false pass, now caught): BUGGY: transformer_parameter_count checks biases only when n_layer > 0."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def transformer_parameter_count(vocab, d_model, n_layer, d_ff, context_length, **kwargs):
    if n_layer == 0 and "biases" in kwargs and not isinstance(kwargs["biases"], (bool, np.bool_)):
        kwargs = {**kwargs, "biases": False}
    return _base.transformer_parameter_count(
        vocab, d_model, n_layer, d_ff, context_length, **kwargs
    )
