"""Correct, from an adversarial tester's fourth held-out set: CORRECT (contract: "dict of exact ints"): transformer_parameter_count accumulates its
table in a collections.defaultdict(int), a dict subclass, and returns it."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
from collections import defaultdict


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
    out = defaultdict(int)
    for key, value in _base.transformer_parameter_count(
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
    ).items():
        out[key] += value
    return out
