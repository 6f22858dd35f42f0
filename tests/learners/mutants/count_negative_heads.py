"""Mutant: transformer_parameter_count computes attention as 4*d*d inline and only guards n_head != 0 and divisibility: a negative n_head is accepted. From an adversarial tester's third held-out set (count_negative_heads)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def _integer(name: str, value: object, minimum: int) -> int:
    """``value`` as a Python int >= ``minimum``, or a ValueError naming the argument."""
    # bool is an int to Python, and np.bool_ was once an index: neither is a size
    if isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be an integer, got the boolean {value!r}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{name} must be an integer, got {value!r}") from None
    if number < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {number}")
    return number


def _flag(name: str, value: object) -> bool:
    """``value`` as a bool: True/False (or NumPy's), nothing else."""
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


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
    flag that is not True or False (the ints 0 and 1 included: no truthiness). Keys:
    embedding, position_table, attention_per_layer, ffn_per_layer, norms_per_layer,
    per_layer, final_norm, head, total.
    """
    vocab = _integer("vocab", vocab, 1)
    d = _integer("d_model", d_model, 1)
    n_layer = _integer("n_layer", n_layer, 0)
    d_ff = _integer("d_ff", d_ff, 1)
    context_length = _integer("context_length", context_length, 0)
    heads = 1 if n_head is None else _integer("n_head", n_head, -(10**18))
    if heads == 0 or d % heads:
        raise ValueError("n_head must divide d_model")
    if positions not in ("none", "sinusoidal", "rope", "learned"):
        raise ValueError(f"unknown positions {positions!r}")
    biases = _flag("biases", biases)
    layernorm = _flag("layernorm", layernorm)
    tied = _flag("tied", tied)
    embedding = vocab * d
    position_table = context_length * d if positions == "learned" else 0
    attention = 4 * d * d + (4 * d if biases else 0)  # b_qkv, b_o
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
