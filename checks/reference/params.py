"""Stages 3-4: parameter accounting for a GPT-style decoder."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from checks.registry import subject

Positions = Literal["none", "sinusoidal", "rope", "learned"]


@subject("attention_parameter_count")
def attention_parameter_count(d_model: int, n_head: int) -> int:
    """Stage 4: H heads of width d/H each own W_Q, W_K, W_V slices; W_O is shared: 4 d^2."""
    if n_head < 1 or d_model % n_head:
        raise ValueError(f"n_head={n_head} must divide d_model={d_model}")
    head = d_model // n_head
    qkv = n_head * 3 * d_model * head  # (d, d/H) for each of Q, K, V, per head
    out = d_model * d_model  # W_O: (H * d/H, d)
    return qkv + out


@subject("transformer_parameter_count", uses=("attention_parameter_count",))
def transformer_parameter_count(
    vocab: int,
    d_model: int,
    n_layer: int,
    d_ff: int,
    context_length: int,
    *,
    n_head: int = 12,
    positions: Positions = "none",
    biases: bool = False,
    layernorm: bool = False,
    tied: bool = True,
    attention_parameter_count: Callable[[int, int], int] = attention_parameter_count,
) -> dict[str, int]:
    """Stage 3: the parameter table, term by term.

    The chapter's accounting (chapter 8) is ``positions="none", biases=False,
    layernorm=False, tied=True``. ``context_length`` is the position table's length; only a
    learned table (GPT-2's ``wpe``) turns it into parameters.
    """
    if positions not in ("none", "sinusoidal", "rope", "learned"):
        raise ValueError(f"unknown positions {positions!r}")
    d = d_model
    embedding = vocab * d
    position_table = context_length * d if positions == "learned" else 0
    attention = int(attention_parameter_count(d, n_head)) + (4 * d if biases else 0)  # b_qkv, b_o
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
