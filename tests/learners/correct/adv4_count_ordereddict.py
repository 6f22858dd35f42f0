"""Correct, from an adversarial tester's fourth held-out set: CORRECT (contract: "dict of exact ints"): transformer_parameter_count returns its table as a
collections.OrderedDict (a dict subclass, keys in the table's order)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
from collections import OrderedDict


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
    table = _base.transformer_parameter_count(
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
    return OrderedDict(table)
