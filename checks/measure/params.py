"""Checks for stages 3-4: the parameter table, what makes it depend on T, and GPT-2."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from checks.measure.common import finite, largest, smallest, whole
from checks.pack import check
from runner.pack import Implementation, Measurements

TABLE_ROWS = ("embedding", "attention_per_layer", "ffn_per_layer", "per_layer", "head", "total")


def gpt2_state_dict_shapes(
    vocab: int, d_model: int, n_layer: int, d_ff: int, n_ctx: int
) -> dict[str, tuple[int, ...]]:
    """The tensors of Hugging Face's ``GPT2LMHeadModel`` by name and shape.

    An independent oracle for the formula: it lists what the real checkpoint stores
    (Conv1D weights are (in, out)); ``lm_head.weight`` is tied to ``wte`` and not stored.
    """
    d = d_model
    shapes: dict[str, tuple[int, ...]] = {"wte.weight": (vocab, d), "wpe.weight": (n_ctx, d)}
    for i in range(n_layer):
        block = {
            "ln_1.weight": (d,),
            "ln_1.bias": (d,),
            "attn.c_attn.weight": (d, 3 * d),
            "attn.c_attn.bias": (3 * d,),
            "attn.c_proj.weight": (d, d),
            "attn.c_proj.bias": (d,),
            "ln_2.weight": (d,),
            "ln_2.bias": (d,),
            "mlp.c_fc.weight": (d, d_ff),
            "mlp.c_fc.bias": (d_ff,),
            "mlp.c_proj.weight": (d_ff, d),
            "mlp.c_proj.bias": (d,),
        }
        shapes.update({f"h.{i}.{name}": shape for name, shape in block.items()})
    shapes.update({"ln_f.weight": (d,), "ln_f.bias": (d,)})
    return shapes


def _size(shapes: dict[str, tuple[int, ...]], keep: Any = None) -> int:
    return sum(math.prod(s) for n, s in shapes.items() if keep is None or keep(n))


@check(
    "parameter_table",
    needs=("transformer_parameter_count",),
    measures=(*TABLE_ROWS, "totals_by_context", "total_change_across_context"),
)
def parameter_table(
    impl: Implementation,
    vocab: int,
    d_model: int,
    n_layer: int,
    d_ff: int,
    n_head: int,
    context_lengths: list[int],
) -> Measurements:
    """Stage 3: the chapter's table, and its total at every context length given."""
    count = impl["transformer_parameter_count"]
    cfg = {"vocab": vocab, "d_model": d_model, "n_layer": n_layer, "d_ff": d_ff, "n_head": n_head}
    tables = [count(**cfg, context_length=t) for t in context_lengths]
    totals = [whole(table["total"]) for table in tables]
    first = tables[0]
    return {
        **{row: whole(first[row]) for row in TABLE_ROWS},
        "totals_by_context": totals,
        "total_change_across_context": largest(totals) - smallest(totals),
    }


@check(
    "context_dependence",
    needs=("transformer_parameter_count",),
    measures=(
        "change_none",
        "change_sinusoidal",
        "change_rope",
        "change_learned",
        "learned_change_per_position",
    ),
)
def context_dependence(
    impl: Implementation,
    vocab: int,
    d_model: int,
    n_layer: int,
    d_ff: int,
    n_head: int,
    context_lengths: list[int],
) -> Measurements:
    """Stage 3: the total changes with T exactly when a parameter is indexed by position."""
    count = impl["transformer_parameter_count"]
    cfg = {"vocab": vocab, "d_model": d_model, "n_layer": n_layer, "d_ff": d_ff, "n_head": n_head}
    short, long = min(context_lengths), max(context_lengths)
    out: Measurements = {}
    for positions in ("none", "sinusoidal", "rope", "learned"):
        totals = [
            whole(count(**cfg, context_length=t, positions=positions)["total"])
            for t in (short, long)
        ]
        out[f"change_{positions}"] = totals[1] - totals[0]
    out["learned_change_per_position"] = out["change_learned"] / (long - short)
    return out


@check(
    "gpt2_reconciliation",
    needs=("transformer_parameter_count",),
    measures=(
        "chapter_total",
        "no_bias_tied_with_positions",
        "no_bias_tied_with_layernorm",
        "real_total",
        "state_dict_total",
        "difference",
        "position_table",
        "biases_and_norms",
        "real_log10",
    ),
    # summed from the hand-typed list of the checkpoint's tensor shapes: an independent
    # oracle for the count, but context, not something the implementation computed
    context=("state_dict_total", "position_table", "biases_and_norms"),
)
def gpt2_reconciliation(
    impl: Implementation,
    vocab: int,
    d_model: int,
    n_layer: int,
    d_ff: int,
    n_head: int,
    n_ctx: int,
) -> Measurements:
    """Stage 1/3: the chapter's GPT-2 small count against the real checkpoint's layout, and
    what the chapter's stated convention ("no bias, tied embedding") gives when GPT-2's
    position table or its LayerNorms are kept: the chapter's figure also needs neither."""
    count = impl["transformer_parameter_count"]
    cfg = {"vocab": vocab, "d_model": d_model, "n_layer": n_layer, "d_ff": d_ff, "n_head": n_head}
    chapter = whole(count(**cfg, context_length=n_ctx)["total"])
    with_positions = whole(count(**cfg, context_length=n_ctx, positions="learned")["total"])
    with_layernorm = whole(count(**cfg, context_length=n_ctx, layernorm=True)["total"])
    real = whole(
        count(**cfg, context_length=n_ctx, positions="learned", biases=True, layernorm=True)[
            "total"
        ]
    )
    shapes = gpt2_state_dict_shapes(vocab, d_model, n_layer, d_ff, n_ctx)
    return {
        "chapter_total": chapter,
        "no_bias_tied_with_positions": with_positions,
        "no_bias_tied_with_layernorm": with_layernorm,
        "real_total": real,
        "state_dict_total": _size(shapes),
        "difference": real - chapter,
        "position_table": _size(shapes, lambda n: n.startswith("wpe")),
        "biases_and_norms": _size(shapes, lambda n: n.endswith(".bias") or "ln_" in n),
        "real_log10": math.log10(real),
    }


@check(
    "head_parameter_budget",
    needs=("attention_parameter_count", "multi_head_attention"),
    measures=("attention_parameters", "weight_array_parameters"),
)
def head_parameter_budget(
    impl: Implementation,
    d_model: int,
    heads: list[int],
    operator_d_model: int,
    rng: np.random.Generator,
) -> Measurements:
    """Stage 4: 4 d² for every head count, from the count and from the weights the operator
    really reads.

    ``attention_parameters`` is the implementation's attention_parameter_count(d, H);
    ``weight_array_parameters`` counts, at each H, the entries of the real weight arrays
    multi_head_attention(x, W_Q, W_K, W_V, W_O, H) is run with: four (d', d') arrays of
    ``operator_d_model`` = d', each counted only if changing it changes the output (an array
    the operator accepts but never reads adds nothing; one it refuses at that H stops the
    claim with its error). At d = 768 the four arrays hold 2,359,296 numbers, more than one
    call may send to a learner's worker (2^21), so the operator is run at a d' every H
    divides; x has T = 2 positions, and position 1 sees both.
    """
    counted = [whole(impl["attention_parameter_count"](d_model, h)) for h in heads]
    mha = impl["multi_head_attention"]
    d = operator_d_model
    x = rng.standard_normal((2, d))  # (T, d), T = 2
    weights = [rng.standard_normal((d, d)) / math.sqrt(d) for _ in range(4)]  # W_Q, W_K, W_V, W_O
    read: list[float] = []
    for h in heads:
        base = np.asarray(mha(x, *weights, h), dtype=np.float64)  # (T, d)
        total: float = 0
        seen = finite(base)  # a NaN output differs from itself: reading nothing would look read
        for i, w in enumerate(weights):
            moved = list(weights)
            moved[i] = w + rng.standard_normal(w.shape) / math.sqrt(d)  # another array, same shape
            out = np.asarray(mha(x, *moved, h), dtype=np.float64)
            seen = seen and finite(out)
            if out.shape != base.shape or not np.array_equal(out, base):
                total += w.size
        read.append(total if seen else math.nan)
    return {"attention_parameters": counted, "weight_array_parameters": read}
