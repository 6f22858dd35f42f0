"""From an adversarial tester's fourth held-out set (a false pass, now caught): BUGGY: transformer_parameter_count validates d_ff and n_head only while counting a layer,
so with n_layer = 0 a d_ff of 0 or an n_head that does not divide d_model is accepted
(reference: ValueError whatever n_layer is)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


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
    if as_int("n_layer", n_layer, 0) == 0:
        v = as_int("vocab", vocab, 1)
        d = as_int("d_model", d_model, 1)
        ctx = as_int("context_length", context_length, 0)
        if positions not in POSITIONS:
            raise ValueError(f"unknown positions {positions!r}")
        for name, flag in (("biases", biases), ("layernorm", layernorm), ("tied", tied)):
            if not isinstance(flag, bool | np.bool_):
                raise ValueError(f"{name} must be a bool")
        # no layer: d_ff and n_head are never looked at   <- the bug
        attention = 4 * d * d + (4 * d if biases else 0)
        ff = d_ff if isinstance(d_ff, int) else int(d_ff)
        ffn = 2 * d * ff + ((ff + d) if biases else 0)
        norms = 4 * d if layernorm else 0
        table = {
            "embedding": v * d,
            "position_table": ctx * d if positions == "learned" else 0,
            "attention_per_layer": attention,
            "ffn_per_layer": ffn,
            "norms_per_layer": norms,
            "per_layer": attention + ffn + norms,
            "final_norm": 2 * d if layernorm else 0,
            "head": 0 if tied else v * d,
        }
        table["total"] = (
            table["embedding"] + table["position_table"] + table["final_norm"] + table["head"]
        )
        return table
    return _base.transformer_parameter_count(
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
