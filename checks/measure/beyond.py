"""Checks for stage 2's side propositions, the chapter review and the next step.

Stage 2 places MoE, linear attention and FlashAttention on the structure–flexibility axis;
these checks run each one as real NumPy code and measure what the text says moves: the
parameters, the function computed, the multiply-adds and the largest temporary array. Costs
are counted (deterministic), never timed, so the evidence does not drift between runs.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from checks.measure.common import CHAPTER_GPT2, log10_total
from checks.measure.sampling import DTYPES, underflow_temperature
from checks.registry import Implementation, Measurements, check

Array = NDArray[np.float64]
MATCH = 1e-12  # "the same function": equal to float64 rounding


def _qkv(rng: np.random.Generator, length: int, d_model: int) -> tuple[Array, Array, Array]:
    q, k, v = (rng.standard_normal((length, d_model)) for _ in range(3))  # (T, d) each
    return q, k, v


def _softmax_attention(
    impl: Implementation, q: Array, k: Array, v: Array
) -> tuple[Array, int, int]:
    """The naive causal attention of stages 4-5: (output, multiply-adds, largest temporary).

    The two products are computed here, so they are counted here from their shapes; the
    (T, T) scores and weights are the temporaries.
    """
    t_len, d = q.shape
    scores = q @ k.T / math.sqrt(d)  # (T, T)
    weights = np.asarray(impl["causal_masked_attention"](scores), dtype=np.float64)  # (T, T)
    out = weights @ v  # (T, d_v)
    multiply_adds = t_len * d * t_len + t_len * t_len * v.shape[1]
    return out, multiply_adds, max(scores.size, weights.size)


def _with_cost(fn: Callable[..., Any], *args: Any) -> tuple[Array, dict[str, int]]:
    """Call a function that returns (output, cost); the output as float64."""
    out, cost = fn(*args)
    return np.asarray(out, dtype=np.float64), {name: int(n) for name, n in cost.items()}


def _slope(xs: list[int], ys: list[int]) -> float:
    """The log-log slope of ys against xs (least squares): the exponent p in y ∝ x^p."""
    return float(np.polyfit(np.log(xs), np.log(ys), 1)[0])


def _relative(a: Array, b: Array) -> float:
    """||a − b|| / ||b||, Frobenius."""
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


def _weight_arguments(fn: Callable[..., Any], takes: int) -> int:
    """Required arguments beyond the ``takes`` inputs the chapter passes: anything a variant
    could learn must reach it as an argument, as with stage 2's averaging model."""
    params = inspect.signature(fn).parameters.values()
    required = [p for p in params if p.default is inspect.Parameter.empty]
    return len(required) - takes


def _per_token(total: int, tokens: int) -> int | float:
    return total // tokens if total % tokens == 0 else total / tokens


# -- FlashAttention ------------------------------------------------------------------------
@check(
    "flash_tiling_equivalence",
    needs=("flash_attention", "causal_masked_attention"),
    measures=(
        "max_abs_difference_by_block",
        "max_abs_difference",
        "blocks_matching",
        "weight_arguments",
        "output_shape",
    ),
    precision={"max_abs_difference": "residue", "max_abs_difference_by_block": "residue"},
)
def flash_tiling_equivalence(
    impl: Implementation, length: int, d_model: int, blocks: list[int], rng: np.random.Generator
) -> Measurements:
    """Stage 2: tiled attention with the online softmax equals the naive causal attention,
    for every block size, and takes no weight of its own."""
    q, k, v = _qkv(rng, length, d_model)
    naive, _, _ = _softmax_attention(impl, q, k, v)
    flash = impl["flash_attention"]
    diffs = []
    shape: list[int] = []
    for block in blocks:
        out, _ = _with_cost(flash, q, k, v, block)
        shape = list(out.shape)
        diffs.append(float(np.max(np.abs(out - naive))) if out.shape == naive.shape else math.inf)
    return {
        "max_abs_difference_by_block": diffs,
        "max_abs_difference": max(diffs),
        "blocks_matching": sum(d <= MATCH for d in diffs),
        "weight_arguments": _weight_arguments(flash, 4),  # q, k, v, block
        "output_shape": shape,
    }


@check(
    "flash_memory_scaling",
    needs=("flash_attention", "causal_masked_attention"),
    measures=(
        "naive_largest_temporary",
        "tiled_largest_temporary",
        "length_growth",
        "naive_growth",
        "tiled_growth",
        "max_abs_difference",
        "naive_multiply_adds",
        "tiled_multiply_adds",
    ),
    precision={"max_abs_difference": "residue"},
)
def flash_memory_scaling(
    impl: Implementation, lengths: list[int], d_model: int, block: int, rng: np.random.Generator
) -> Measurements:
    """Stage 2: the largest temporary array of the naive and the tiled computation as T grows.

    Growth is last over first: T² makes the naive one grow with the square of the length;
    the tiled one holds a (block, block) score tile and (block, d) sums, whatever T is.
    """
    naive_sizes, tiled_sizes, naive_madds, tiled_madds = [], [], [], []
    worst = 0.0
    for t_len in lengths:
        q, k, v = _qkv(rng, t_len, d_model)
        naive, madds, largest = _softmax_attention(impl, q, k, v)
        out, cost = _with_cost(impl["flash_attention"], q, k, v, block)
        naive_sizes.append(largest)
        naive_madds.append(madds)
        tiled_sizes.append(cost["largest_temporary"])
        tiled_madds.append(cost["multiply_adds"])
        worst = max(worst, float(np.max(np.abs(out - naive))))
    return {
        "naive_largest_temporary": naive_sizes,
        "tiled_largest_temporary": tiled_sizes,
        "length_growth": lengths[-1] / lengths[0],
        "naive_growth": naive_sizes[-1] / naive_sizes[0],
        "tiled_growth": tiled_sizes[-1] / tiled_sizes[0],
        "max_abs_difference": worst,
        "naive_multiply_adds": naive_madds,
        "tiled_multiply_adds": tiled_madds,
    }


# -- linear attention ------------------------------------------------------------------------
def _causality(
    fn: Callable[..., Any], length: int, d_model: int, rng: np.random.Generator
) -> tuple[int, int]:
    """Perturb position s of q, k and v; count the (s, t) pairs whose output row t changed
    at all, split into s ≤ t (allowed) and s > t (the future leaking)."""
    q, k, v = _qkv(rng, length, d_model)
    base, _ = _with_cost(fn, q, k, v)
    changed = np.zeros((length, length), dtype=bool)  # [s, t]
    for s in range(length):
        q2, k2, v2 = q.copy(), k.copy(), v.copy()
        for a in (q2, k2, v2):
            a[s] += rng.standard_normal(d_model)
        out, _ = _with_cost(fn, q2, k2, v2)
        changed[s] = np.any(out != base, axis=1)
    s_idx, t_idx = np.indices((length, length))
    return int(np.count_nonzero(changed[s_idx <= t_idx])), int(
        np.count_nonzero(changed[s_idx > t_idx])
    )


@check(
    "linear_attention_cost",
    needs=("linear_attention", "causal_masked_attention"),
    measures=(
        "linear_multiply_adds",
        "softmax_multiply_adds",
        "linear_slope",
        "softmax_slope",
        "relative_difference",
        "min_relative_difference",
        "row0_difference",
        "linear_largest_temporary",
        "changed_s_le_t",
        "changed_s_gt_t",
    ),
    precision={"row0_difference": "residue"},
)
def linear_attention_cost(
    impl: Implementation,
    lengths: list[int],
    d_model: int,
    causal_length: int,
    rng: np.random.Generator,
) -> Measurements:
    """Stage 2: linear attention's multiply-adds grow like T, softmax attention's like T²;
    on the same q, k, v the outputs differ (the exact softmax is what is given up), and
    the running sums keep it causal."""
    linear = impl["linear_attention"]
    lin_madds, soft_madds, diffs, temps = [], [], [], []
    row0 = 0.0
    for t_len in lengths:
        q, k, v = _qkv(rng, t_len, d_model)
        soft, madds, _ = _softmax_attention(impl, q, k, v)
        out, cost = _with_cost(linear, q, k, v)
        lin_madds.append(cost["multiply_adds"])
        soft_madds.append(madds)
        temps.append(cost["largest_temporary"])
        diffs.append(_relative(out, soft))
        # row 0 sees only itself: every attention returns v_0 there
        row0 = max(row0, float(np.max(np.abs(out[0] - soft[0]))))
    le, gt = _causality(linear, causal_length, d_model, rng)
    return {
        "linear_multiply_adds": lin_madds,
        "softmax_multiply_adds": soft_madds,
        "linear_slope": _slope(lengths, lin_madds),
        "softmax_slope": _slope(lengths, soft_madds),
        "relative_difference": diffs,
        "min_relative_difference": min(diffs),
        "row0_difference": row0,
        "linear_largest_temporary": temps,
        "changed_s_le_t": le,
        "changed_s_gt_t": gt,
    }


# -- MoE -----------------------------------------------------------------------------------
def _routed(
    impl: Implementation, x: Array, w_router: Array, w_in: Array, w_out: Array, top_k: int
) -> Array:
    """What an MoE layer must output, computed slot by slot: for each token's j-th choice,
    the chosen expert's MLP on that token times a softmax of the kept router scores."""
    mlp = impl["position_wise_mlp"]
    logits = x @ w_router  # (T, E)
    chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]  # (T, k)
    kept = np.take_along_axis(logits, chosen, axis=1)  # (T, k)
    gates = np.exp(kept - kept.max(axis=1, keepdims=True))
    gates /= gates.sum(axis=1, keepdims=True)  # (T, k)
    out = np.zeros_like(x)  # (T, d)
    for j in range(top_k):
        # the experts chosen at all (np.unique would import numpy.ma on its first call)
        for e in np.flatnonzero(np.bincount(chosen[:, j])):
            rows = chosen[:, j] == e  # (T,) the tokens whose j-th choice is e
            out[rows] += gates[rows, j, None] * np.asarray(mlp(x[rows], w_in[e], w_out[e]))
    return out


@check(
    "moe_scaling",
    needs=("moe_layer", "moe_parameter_count", "position_wise_mlp"),
    measures=(
        "parameters",
        "parameter_count_mismatch",
        "parameter_growth",
        "expert_multiply_adds_per_token",
        "router_multiply_adds_per_token",
        "combine_multiply_adds_per_token",
        "total_multiply_adds_per_token",
        "expert_compute_growth",
        "max_abs_difference_from_routing",
        "dense_difference",
        "tokens_per_expert",
    ),
    precision={"max_abs_difference_from_routing": "residue", "dense_difference": "residue"},
)
def moe_scaling(
    impl: Implementation,
    length: int,
    d_model: int,
    d_ff: int,
    experts: list[int],
    top_k: int,
    rng: np.random.Generator,
) -> Measurements:
    """Stage 2: an MoE layer's parameters grow with the number of experts E while the
    multiply-adds each token spends in experts stay k·2·d·d_ff; with E = 1 it is the dense FFN.
    """
    d = d_model
    moe = impl["moe_layer"]
    x = rng.standard_normal((length, d))  # (T, d)
    params, mismatch, tokens, worst = [], [], [], 0.0
    per_token: dict[str, list[int | float]] = {"router": [], "experts": [], "combine": []}
    for n_experts in experts:
        w_router = rng.standard_normal((d, n_experts)) / math.sqrt(d)  # (d, E)
        w_in = rng.standard_normal((n_experts, d, d_ff)) / math.sqrt(d)  # (E, d, d_ff)
        w_out = rng.standard_normal((n_experts, d_ff, d)) / math.sqrt(d_ff)  # (E, d_ff, d)
        count = int(impl["moe_parameter_count"](d, d_ff, n_experts))
        params.append(count)
        mismatch.append(count - (w_router.size + w_in.size + w_out.size))
        y, cost = _with_cost(moe, x, w_router, w_in, w_out, top_k)
        worst = max(
            worst, float(np.max(np.abs(y - _routed(impl, x, w_router, w_in, w_out, top_k))))
        )
        for part, values in per_token.items():
            values.append(_per_token(cost[part], length))
        tokens.append(np.bincount(np.argmax(x @ w_router, axis=1), minlength=n_experts).tolist())
    # E = 1, top_k = 1: the router has one choice and a gate of exactly 1
    w_in1 = rng.standard_normal((1, d, d_ff)) / math.sqrt(d)
    w_out1 = rng.standard_normal((1, d_ff, d)) / math.sqrt(d_ff)
    moe1, _ = _with_cost(moe, x, rng.standard_normal((d, 1)), w_in1, w_out1, 1)
    dense = np.asarray(impl["position_wise_mlp"](x, w_in1[0], w_out1[0]), dtype=np.float64)
    totals = [sum(parts) for parts in zip(*per_token.values(), strict=True)]
    return {
        "parameters": params,
        "parameter_count_mismatch": mismatch,
        "parameter_growth": params[-1] / params[0],
        "expert_multiply_adds_per_token": per_token["experts"],
        "router_multiply_adds_per_token": per_token["router"],
        "combine_multiply_adds_per_token": per_token["combine"],
        "total_multiply_adds_per_token": totals,
        "expert_compute_growth": per_token["experts"][-1] / per_token["experts"][0],
        "max_abs_difference_from_routing": worst,
        "dense_difference": float(np.max(np.abs(moe1 - dense))),
        "tokens_per_expert": tokens,  # top-1 choice counts, for the record
    }


# -- the chapter review (本章验收) and the next step (下一步) -----------------------------
@check(
    "factorization_gap",
    needs=("sequence_support_log10", "transformer_parameter_count"),
    measures=(
        "per_sequence_log10",
        "chain_tables_log10",
        "chain_tables_excess",
        "t_tables_of_v_log10",
        "shared_model_log10",
        "gap_orders",
    ),
)
def factorization_gap(impl: Implementation, vocab: int, length: int) -> Measurements:
    """Review question 1: per-sequence parameters against the factorized model.

    The chain rule alone, with each conditional a lookup table keyed by its prefix, needs
    Σ_{t=1..T} V^t entries (V^(t−1) prefixes × V next tokens at position t): summed here in
    log space from sequence_support_log10. "T tables of V" (T·V) and a real model (GPT-2 small)
    are what parameter sharing gives.
    """
    support = impl["sequence_support_log10"]
    per_sequence = float(support(vocab, length))
    ln10 = math.log(10.0)
    terms = np.array([support(vocab, t) for t in range(1, length + 1)], dtype=np.float64) * ln10
    chain_tables = float(np.logaddexp.reduce(terms) / ln10)
    model = log10_total(impl, CHAPTER_GPT2)
    return {
        "per_sequence_log10": per_sequence,
        "chain_tables_log10": chain_tables,
        "chain_tables_excess": chain_tables - per_sequence,
        "t_tables_of_v_log10": math.log10(length * vocab),
        "shared_model_log10": model,
        "gap_orders": per_sequence - model,
    }


@check(
    "attention_axis",
    needs=("flash_attention", "linear_attention", "causal_masked_attention"),
    measures=(
        "flash_weight_arguments",
        "linear_weight_arguments",
        "flash_relative_difference",
        "linear_relative_difference",
        "flash_max_relative_difference",
        "linear_min_relative_difference",
        "softmax_multiply_add_slope",
        "flash_multiply_add_slope",
        "linear_multiply_add_slope",
        "softmax_temporary_slope",
        "flash_temporary_slope",
        "linear_temporary_slope",
    ),
    precision={
        "flash_max_relative_difference": "residue",
        "flash_relative_difference": "residue",
        "flash_temporary_slope": "residue",
    },
)
def attention_axis(
    impl: Implementation, lengths: list[int], d_model: int, block: int, rng: np.random.Generator
) -> Measurements:
    """Review question 2: where linear attention and FlashAttention sit on stage 2's axis.

    For each: weights it adds, how far its output is from softmax attention on the same
    q, k, v (relative, per T), and the log-log slopes of multiply-adds and of the largest
    temporary against T.
    """
    flash, linear = impl["flash_attention"], impl["linear_attention"]
    flash_diff: list[float] = []
    linear_diff: list[float] = []
    cost: dict[str, dict[str, list[int]]] = {
        name: {"multiply_adds": [], "largest_temporary": []}
        for name in ("softmax", "flash", "linear")
    }
    for t_len in lengths:
        q, k, v = _qkv(rng, t_len, d_model)
        soft, madds, largest = _softmax_attention(impl, q, k, v)
        cost["softmax"]["multiply_adds"].append(madds)
        cost["softmax"]["largest_temporary"].append(largest)
        for name, out_cost, diffs in (
            ("flash", _with_cost(flash, q, k, v, block), flash_diff),
            ("linear", _with_cost(linear, q, k, v), linear_diff),
        ):
            output, c = out_cost
            diffs.append(_relative(output, soft))
            for key in ("multiply_adds", "largest_temporary"):
                cost[name][key].append(c[key])
    out: Measurements = {
        "flash_weight_arguments": _weight_arguments(flash, 4),  # q, k, v, block
        "linear_weight_arguments": _weight_arguments(linear, 3),  # q, k, v
        "flash_relative_difference": flash_diff,
        "linear_relative_difference": linear_diff,
        "flash_max_relative_difference": max(flash_diff),
        "linear_min_relative_difference": min(linear_diff),
    }
    for name in ("softmax", "flash", "linear"):
        out[f"{name}_multiply_add_slope"] = _slope(lengths, cost[name]["multiply_adds"])
        out[f"{name}_temporary_slope"] = _slope(lengths, cost[name]["largest_temporary"])
    return out


@check(
    "low_temperature_tail",
    needs=("softmax_temperature",),
    measures=(
        "tail_float64",
        "tail_float32",
        "tail_float16",
        "nonzero_support",
        "sampler_reachable",
        "tail_zero_below",
        "dtypes",
    ),
)
def low_temperature_tail(
    impl: Implementation, logits: list[float], temperature: float
) -> Measurements:
    """Review question 3: does a low temperature shrink the candidate set, and when does it
    act like top-k?

    Per dtype (float64, float32, float16): the tail probabilities at ``temperature``; how many
    tokens keep a non-zero probability; how many a sampler can still draw (numpy's
    Generator.choice: cumulative sum in float64, divided by its last entry, searched with a
    uniform u in [0, 1), so token i is reachable only if cdf[i] > cdf[i-1]); and the
    temperature below which every token but the top one is an exact 0.
    """
    fn = impl["softmax_temperature"]
    out: Measurements = {"dtypes": list(DTYPES)}
    nonzero, reachable, zero_below = [], [], []
    for name, dtype in DTYPES.items():
        z = np.asarray(logits, dtype=dtype)
        p = np.asarray(fn(z, temperature))  # (V,) in the logits' dtype
        order = np.argsort(-np.asarray(logits), kind="stable")
        out[f"tail_{name}"] = [float(x) for x in p[order[1:]]]
        nonzero.append(int(np.count_nonzero(p)))
        cdf = np.cumsum(p.astype(np.float64))
        cdf /= cdf[-1]
        reachable.append(int(np.count_nonzero(np.diff(cdf, prepend=0.0) > 0)))
        second = int(order[1])

        def tail(t: float, z: NDArray[Any] = z, i: int = second) -> float:
            return float(np.asarray(fn(z, t))[i])

        zero_below.append(underflow_temperature(tail))
    out["nonzero_support"] = nonzero
    out["sampler_reachable"] = reachable
    out["tail_zero_below"] = zero_below
    return out


@check(
    "ngram_table_orders",
    needs=("sequence_support_log10", "transformer_parameter_count"),
    measures=(
        "table_log10",
        "model_log10",
        "orders_above_model",
        "largest_order_within_model",
    ),
)
def ngram_table_orders(impl: Implementation, vocab: int, orders: list[int]) -> Measurements:
    """Next step: an n-gram count table has one entry per n-gram, V^n of them (V^(n−1)
    contexts × V next tokens), the same count as the support of length-n sequences."""
    support = impl["sequence_support_log10"]
    model = log10_total(impl, CHAPTER_GPT2)
    tables = [float(support(vocab, n)) for n in orders]
    n = 0
    while n < 10_000 and float(support(vocab, n + 1)) <= model:  # bounded, even for V = 1
        n += 1
    return {
        "table_log10": tables,
        "model_log10": model,
        "orders_above_model": [t - model for t in tables],
        "largest_order_within_model": n,
    }
