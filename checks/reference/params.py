"""Stages 3-4: parameter accounting for a GPT-style decoder."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from checks.pack import subject
from checks.reference._args import _flag, _integer

Positions = Literal["none", "sinusoidal", "rope", "learned"]


@subject("attention_parameter_count")
def attention_parameter_count(d_model: int, n_head: int) -> int:
    """Stage 4: H heads of width d/H each own (d, d/H) slices of W_Q, W_K, W_V; W_O is one
    (d, d) matrix applied to the concatenated heads: 3d² + d² = 4d², whatever H is.

    d_model >= 1 and n_head >= 1 are integers and n_head divides d_model (else ValueError).
    Returns a Python int, exact for any size.
    """
    d_model = _integer("d_model", d_model, 1)
    n_head = _integer("n_head", n_head, 1)
    if d_model % n_head:
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
    n_head: int | None = None,
    positions: Positions = "none",
    biases: bool = False,
    layernorm: bool = False,
    tied: bool = True,
    attention_parameter_count: Callable[[int, int], int] = attention_parameter_count,
) -> dict[str, int]:
    """Stage 3: the parameter table, term by term, as exact Python ints.

    The chapter's accounting (chapter 8) is ``positions="none", biases=False,
    layernorm=False, tied=True``. Per layer: attention 4d² (from attention_parameter_count)
    plus, with ``biases``, 4d (b_q, b_k, b_v, b_o); the FFN 2·d·d_ff plus, with ``biases``,
    d_ff + d; with ``layernorm``, two LayerNorms of a gain and a bias each, 4d. After the
    layers: with ``layernorm`` a final LayerNorm, 2d; an untied output head (``tied=False``)
    of V·d (no bias). ``context_length`` becomes parameters only with ``positions="learned"``
    (GPT-2's wpe, context_length·d); "sinusoidal" and "rope" are computed, not learned.

    ``n_head`` does not change the count: left out (None), the attention term is counted as
    one head; given, it must divide d_model. Sizes are integers: vocab, d_model, d_ff >= 1,
    n_layer, context_length >= 0. Anything else is a ValueError: a ``positions`` other than
    the four lower-case strings exactly (None, "Learned", "rotary", "absolute" included), a
    flag that is not True or False (the ints 0 and 1 included: no truthiness). NumPy's bools
    (np.True_, np.False_, an np.bool_) are True and False, as NumPy integers are integers.
    Keys: embedding, position_table, attention_per_layer, ffn_per_layer, norms_per_layer,
    per_layer, final_norm, head, total.
    """
    vocab = _integer("vocab", vocab, 1)
    d = _integer("d_model", d_model, 1)
    n_layer = _integer("n_layer", n_layer, 0)
    d_ff = _integer("d_ff", d_ff, 1)
    context_length = _integer("context_length", context_length, 0)
    heads = 1 if n_head is None else _integer("n_head", n_head, 1)
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
