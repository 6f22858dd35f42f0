"""Takes positions=None for none.

The scaffold's reference transformer_parameter_count() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821


def transformer_parameter_count(
    vocab: int,
    d_model: int,
    n_layer: int,
    d_ff: int,
    context_length: int,
    *,
    n_head: int | None = None,
    positions: Positions = "none",
    biases: bool = False,
    layernorm: bool = False,
    tied: bool = True,
    attention_parameter_count: Callable[[int, int], int] = attention_parameter_count,
) -> dict[str, int]:
    vocab = _integer("vocab", vocab, 1)
    d = _integer("d_model", d_model, 1)
    n_layer = _integer("n_layer", n_layer, 0)
    d_ff = _integer("d_ff", d_ff, 1)
    context_length = _integer("context_length", context_length, 0)
    heads = 1 if n_head is None else _integer("n_head", n_head, 1)
    if positions is None:
        positions = "none"
    if positions not in ("none", "sinusoidal", "rope", "learned"):
        raise ValueError(f"unknown positions {positions!r}")
    biases = _flag("biases", biases)
    layernorm = _flag("layernorm", layernorm)
    tied = _flag("tied", tied)
    embedding = vocab * d
    position_table = context_length * d if positions == "learned" else 0
    attention = int(attention_parameter_count(d, heads)) + (4 * d if biases else 0)  # b_qkv, b_o
    ffn = 2 * d * d_ff + ((d_ff + d) if biases else 0)
    norms = 2 * 2 * d if layernorm else 0  # two LayerNorms, gain and bias each
    per_layer = attention + ffn + norms
    final_norm = 2 * d if layernorm else 0
    head = 0 if tied else vocab * d
    total = embedding + position_table + n_layer * per_layer + final_norm + head
    return {
        "embedding": embedding,
        "position_table": position_table,
        "attention_per_layer": attention,
        "ffn_per_layer": ffn,
        "norms_per_layer": norms,
        "per_layer": per_layer,
        "final_norm": final_norm,
        "head": head,
        "total": total,
    }
