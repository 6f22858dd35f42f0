"""From an adversarial tester's eighteenth held-out set (a false pass, now caught): BUGGY: transformer_parameter_count fills a mutable default dict and returns it, so every call hands out one dict and changes the counts a caller kept."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base


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
    _table={},
):
    _table.update(
        _base.transformer_parameter_count(
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
    )
    return _table
