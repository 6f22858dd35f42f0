"""Mutant: Multiplies the arguments as they come: NumPy int32 products wrap around."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


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
    if positions not in POSITIONS:
        raise ValueError("unknown positions")
    for size in (vocab, d_model, d_ff):
        if size < 1:
            raise ValueError("sizes must be >= 1")
    if n_layer < 0 or context_length < 0:
        raise ValueError("sizes must be >= 0")
    if n_head is not None and (n_head < 1 or d_model % n_head):
        raise ValueError("n_head must divide d_model")
    d = d_model
    attention = 4 * d * d + (4 * d if biases else 0)
    ffn = 2 * d * d_ff + ((d_ff + d) if biases else 0)
    norms = 4 * d if layernorm else 0
    per_layer = attention + ffn + norms
    table = {
        "embedding": vocab * d,
        "position_table": context_length * d if positions == "learned" else 0,
        "attention_per_layer": attention,
        "ffn_per_layer": ffn,
        "norms_per_layer": norms,
        "per_layer": per_layer,
        "final_norm": 2 * d if layernorm else 0,
        "head": 0 if tied else vocab * d,
    }
    table["total"] = (
        table["embedding"]
        + table["position_table"]
        + n_layer * per_layer
        + table["final_norm"]
        + table["head"]
    )
    return table
