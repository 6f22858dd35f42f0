"""Checks for stages 1-2: why the chain rule is forced, and the structure axis."""

from __future__ import annotations

import itertools
import math

import numpy as np

from checks.inputs import MAX_ENUMERATED, Probed
from checks.measure.common import CHAPTER_GPT2, largest, log10_total, permutation_residue
from checks.pack import check
from runner.pack import Implementation, Measurements


@check(
    "support_orders",
    needs=("sequence_support_log10", "transformer_parameter_count"),
    measures=("support_log10", "product_log10", "model_parameter_log10", "gap_orders"),
    context=("product_log10",),
)
def support_orders(impl: Implementation, vocab: int, length: int) -> Measurements:
    """Stage 1: log10 V^T beside log10 (V*T), and the gap to a GPT-2-small-sized model."""
    support = impl["sequence_support_log10"](vocab, length)
    model = log10_total(impl, CHAPTER_GPT2)
    return {
        "support_log10": support,
        # V*T is the size of a one-hot *per position* encoding, not the number of sequences;
        # recorded beside V^T so the two can never be confused.
        "product_log10": math.log10(vocab * length),
        "model_parameter_log10": model,
        "gap_orders": support - model,
    }


@check(
    "chain_rule_exhaustive",
    needs=("sequence_support_log10", "chain_rule_nll"),
    measures=(
        "sequences_enumerated",
        "support_log10",
        "max_abs_nll_difference",
        "joint_total",
        "conditional_table_entries",
    ),
    # the enumeration, the table's total and the count of prefix tables come from the
    # inputs and the check's own random table: context beside the NLL comparison
    context=("sequences_enumerated", "joint_total", "conditional_table_entries"),
    precision={"max_abs_nll_difference": "residue"},
)
def chain_rule_exhaustive(
    impl: Implementation, vocab: int, length: int, rng: np.random.Generator
) -> Measurements:
    """Stage 1: on every one of the V^T sequences, the chain-rule NLL equals the joint NLL."""
    if vocab < 1 or length < 1 or length * math.log10(vocab) > math.log10(MAX_ENUMERATED):
        raise ValueError(
            f"V^T = {vocab}^{length} sequences to enumerate; this check enumerates at most "
            f"{MAX_ENUMERATED:,} (V >= 1, T >= 1)"
        )
    # A random joint distribution over all sequences, shape (V,) * T, summing to 1.
    joint = rng.dirichlet(np.ones(vocab**length)).reshape((vocab,) * length)
    chain = impl["chain_rule_nll"]
    worst = 0.0
    count = 0
    prefixes: set[tuple[int, ...]] = set()  # every context whose next-token table is used
    for tokens in itertools.product(range(vocab), repeat=length):
        joint_nll = -math.log(float(joint[tokens]))
        worst = largest((worst, abs(float(chain(joint, list(tokens))) - joint_nll)))
        prefixes.update(tokens[:t] for t in range(length))
        count += 1
    return {
        "sequences_enumerated": count,
        "support_log10": impl["sequence_support_log10"](vocab, length),
        "max_abs_nll_difference": worst,
        "joint_total": float(joint.sum()),
        # as lookup tables, the conditionals need V entries per prefix: more than the joint
        "conditional_table_entries": len(prefixes) * vocab,
    }


@check(
    "giant_mlp_orders",
    needs=("giant_mlp_parameter_log10", "sequence_support_log10", "transformer_parameter_count"),
    measures=("giant_mlp_log10", "orders_above_support", "orders_above_model"),
)
def giant_mlp_orders(impl: Implementation, vocab: int, length: int, hidden: int) -> Measurements:
    """Stage 2: the giant MLP's first layer against the support and a real model."""
    giant = impl["giant_mlp_parameter_log10"](vocab, length, hidden)
    return {
        "giant_mlp_log10": giant,
        "orders_above_support": giant - impl["sequence_support_log10"](vocab, length),
        "orders_above_model": giant - log10_total(impl, CHAPTER_GPT2),
    }


@check(
    "averaging_model_structure",
    needs=("averaging_model",),
    measures=(
        "feature_permutation_residue",
        "max_abs_difference_from_prefix_mean",
        "output_shape",
    ),
    precision={
        "max_abs_difference_from_prefix_mean": "residue",
        "feature_permutation_residue": "residue",
    },
)
def averaging_model_structure(
    impl: Implementation, length: Probed, d_model: int, rng: np.random.Generator
) -> Measurements:
    """Stage 2: the averaging model takes no weights; its output is the prefix mean.

    No weight shows in what a run sees: the output is the prefix mean of the input alone,
    and reordering the d features reorders the output the same way (a weight matrix mixing
    features, read from an argument or from anywhere else, would not)."""
    model = impl["averaging_model"]
    x = rng.standard_normal((length, d_model))  # (T, d)
    y = np.asarray(model(x))  # (T, d)
    prefix_mean = np.stack([x[: t + 1].mean(axis=0) for t in range(length)])  # (T, d)
    residue = permutation_residue(model, (x,), ("d",), rng, out_axis="d")
    return {
        "feature_permutation_residue": residue,
        "max_abs_difference_from_prefix_mean": float(np.max(np.abs(y - prefix_mean))),
        "output_shape": list(y.shape),
    }
