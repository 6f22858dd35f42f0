"""Counts a position table for every kind of position encoding."""


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
    embedding = vocab * d
    position_table = context_length * d if positions != "none" else 0
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
