"""Correct, from an adversarial tester's alternatives (alt_counts_and_chain):
sequence_support_log10, chain_rule_nll, averaging_model, kv_cache_bytes, logits_memory_bytes,
transformer_parameter_count rewritten independently from the contract."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from _base import *


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


def sequence_support_log10(vocab, length):
    """Exact: log10 of the big integer V**T (Python ints never overflow)."""
    for name, v, lo in (("vocab", vocab, 1), ("length", length, 0)):
        if isinstance(v, bool | np.bool_):
            raise ValueError(name)
        try:
            operator.index(v)
        except TypeError:
            raise ValueError(name) from None
        if operator.index(v) < lo:
            raise ValueError(f"{name} must be >= {lo}")
    vocab, length = operator.index(vocab), operator.index(length)
    if vocab == 1 or length == 0:
        return 0.0
    if length * vocab.bit_length() > 4_000_000:  # too big to form quickly: use the identity
        return length * math.log10(vocab)
    return math.log10(vocab**length)


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
    V = _integer("vocab", vocab, 1)
    d = _integer("d_model", d_model, 1)
    L = _integer("n_layer", n_layer, 0)
    f = _integer("d_ff", d_ff, 1)
    C = _integer("context_length", context_length, 0)
    if n_head is not None:
        h = _integer("n_head", n_head, 1)
        if d % h:
            raise ValueError("n_head must divide d_model")
    if not isinstance(positions, str) or positions not in {"none", "sinusoidal", "rope", "learned"}:
        raise ValueError("positions")
    for name, flag in (("biases", biases), ("layernorm", layernorm), ("tied", tied)):
        if type(flag) is not bool and not isinstance(flag, np.bool_):
            raise ValueError(name)
    biases, layernorm, tied = bool(biases), bool(layernorm), bool(tied)
    attn = 4 * d * d + 4 * d * biases
    ffn = d * f + f * d + (f + d) * biases
    norms = 4 * d * layernorm
    c = {
        "embedding": V * d,
        "position_table": C * d if positions == "learned" else 0,
        "attention_per_layer": attn,
        "ffn_per_layer": ffn,
        "norms_per_layer": norms,
        "per_layer": attn + ffn + norms,
        "final_norm": 2 * d * layernorm,
        "head": 0 if tied else V * d,
    }
    c["total"] = (
        c["embedding"] + c["position_table"] + L * c["per_layer"] + c["final_norm"] + c["head"]
    )
    return {k: int(v) for k, v in c.items()}


def chain_rule_nll(joint, tokens):
    """The chain rule telescopes: sum_t -ln P(x_t|x_<t) = -ln P(x_1..x_T); a zero prefix
    makes the full sequence zero too."""
    joint = np.array(joint, dtype=np.float64)
    t_len = joint.ndim
    if t_len < 1 or joint.size == 0 or len(set(joint.shape)) != 1:
        raise ValueError("joint must be (V,)*T")
    if not np.isfinite(joint).all() or (joint < 0).any():
        raise ValueError("joint must be finite and >= 0")
    if not abs(joint.sum() - 1.0) <= 1e-6:
        raise ValueError("joint must sum to 1")
    toks = list(tokens)
    if len(toks) != t_len:
        raise ValueError("wrong number of tokens")
    idx = []
    for t in toks:
        if isinstance(t, bool | np.bool_):
            raise ValueError("token")
        try:
            t = operator.index(t)
        except TypeError:
            raise ValueError("token") from None
        if not 0 <= t < joint.shape[0]:
            raise ValueError("token out of range")
        idx.append(t)
    p = float(joint[tuple(idx)])
    return math.inf if p == 0.0 else -math.log(p)


def averaging_model(x):
    """A running mean updated in place in a fresh output: m_t = m_{t-1} + (x_t - m_{t-1})/(t+1)."""
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or x.shape[0] < 1 or x.shape[1] < 1:
        raise ValueError("x must be (T, d)")
    out = np.empty_like(x)
    s = np.zeros(x.shape[1])
    for t in range(x.shape[0]):
        s += x[t]
        out[t] = s / (t + 1)
    return out


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    vals = []
    for name, v, lo in (
        ("batch", batch, 0),
        ("length", length, 0),
        ("vocab", vocab, 0),
        ("bytes_per_value", bytes_per_value, 1),
    ):
        if isinstance(v, bool | np.bool_):
            raise ValueError(name)
        try:
            v = operator.index(v)
        except TypeError:
            raise ValueError(name) from None
        if v < lo:
            raise ValueError(name)
        vals.append(v)
    return math.prod(vals)


def kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value=4):
    vals = []
    for name, v, lo in (
        ("batch", batch, 0),
        ("length", length, 0),
        ("n_layer", n_layer, 0),
        ("d_model", d_model, 0),
        ("bytes_per_value", bytes_per_value, 1),
    ):
        if isinstance(v, bool | np.bool_):
            raise ValueError(name)
        try:
            v = operator.index(v)
        except TypeError:
            raise ValueError(name) from None
        if v < lo:
            raise ValueError(name)
        vals.append(v)
    return math.prod([2, *vals])
