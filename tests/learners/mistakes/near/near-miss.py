"""Bugs one step from a known mistake, which must still not be named: temperature
multiplied except at T = 10 (so the known mistake fails on one call), and the embedding
counted twice instead of the head (the same total as counting the head twice)."""

import numpy as np


def softmax_temperature(logits, temperature):
    if not temperature > 0:
        raise ValueError("temperature must be > 0")
    z = np.asarray(logits)
    if not np.issubdtype(z.dtype, np.floating):
        z = z.astype(np.float64)
    z = z / z.dtype.type(temperature) if temperature == 10 else z * z.dtype.type(temperature)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


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
    attention_parameter_count=None,
):
    d = d_model
    embedding = 2 * vocab * d  # "the embedding is used twice, in and out"
    position_table = context_length * d if positions == "learned" else 0
    attention = 4 * d * d + (4 * d if biases else 0)
    ffn = 2 * d * d_ff + ((d_ff + d) if biases else 0)
    norms = 4 * d if layernorm else 0
    per_layer = attention + ffn + norms
    final_norm = 2 * d if layernorm else 0
    head = 0 if tied else vocab * d
    return {
        "embedding": embedding,
        "position_table": position_table,
        "attention_per_layer": attention,
        "ffn_per_layer": ffn,
        "norms_per_layer": norms,
        "per_layer": per_layer,
        "final_norm": final_norm,
        "head": head,
        "total": embedding + position_table + n_layer * per_layer + final_norm + head,
    }
