"""Checks for stages 3-5: which positions an operator reads, heads, and the causal mask."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from checks.inputs import Probed
from checks.measure.common import finite, largest
from checks.pack import check
from runner.pack import Implementation, Measurements

Array = NDArray[np.float64]


def _prefix_softmax(row: Array) -> Array:
    """The 'deletion' reading: a softmax whose domain is only the visible prefix."""
    e = np.exp(row - row.max())
    return e / e.sum()  # type: ignore[no-any-return]


@check(
    "causal_mask_as_deletion",
    needs=("causal_masked_attention",),
    measures=(
        "max_abs_difference_from_prefix_softmax",
        "max_abs_row_sum_error",
        "upper_triangle_nonzero_count",
        "row0",
        "rows_summing_to_exactly_one",
        "has_nan",
        "rows_with_nan",
        "row_sum_first",
        "row_sum_min",
        "row_sum_max",
        "upper_triangle_max",
        "weights",
    ),
    precision={
        "max_abs_difference_from_prefix_softmax": "residue",
        "max_abs_row_sum_error": "residue",
        "rows_summing_to_exactly_one": "rounding",
        "upper_triangle_max": "residue",
    },
)
def causal_mask_as_deletion(
    impl: Implementation, length: Probed, rng: np.random.Generator
) -> Measurements:
    """Stage 5: masking with -inf equals a softmax over the prefix, element by element."""
    scores = rng.standard_normal((length, length)) * 3.0  # (T, T)
    weights = np.asarray(impl["causal_masked_attention"](scores), dtype=np.float64)  # (T, T)
    worst = 0.0
    for t in range(length):
        expected = _prefix_softmax(scores[t, : t + 1])  # (t+1,)
        worst = largest((worst, float(np.max(np.abs(weights[t, : t + 1] - expected)))))
    row_sums = weights.sum(axis=1)  # (T,)
    upper = weights[np.triu_indices(length, k=1)]
    return {
        "max_abs_difference_from_prefix_softmax": worst,
        "max_abs_row_sum_error": float(np.max(np.abs(row_sums - 1.0))),
        "upper_triangle_nonzero_count": int(np.count_nonzero(upper)),
        "row0": weights[0].tolist(),
        "rows_summing_to_exactly_one": int(np.count_nonzero(row_sums == 1.0)),
        "has_nan": bool(np.isnan(weights).any()),
        "rows_with_nan": int(np.count_nonzero(np.isnan(weights).any(axis=1))),
        "row_sum_first": float(row_sums[0]),
        "row_sum_min": float(np.min(row_sums)),
        "row_sum_max": float(np.max(row_sums)),
        "upper_triangle_max": float(np.max(upper)) if upper.size else 0.0,
        "weights": weights.tolist(),  # (T, T), for the report's heatmap
    }


@check(
    "position_dependence",
    needs=("position_wise_mlp", "multi_head_attention"),
    measures=(
        "mlp_changed_at_s",
        "mlp_changed_elsewhere",
        "attention_changed_s_le_t",
        "attention_changed_s_gt_t",
    ),
)
def position_dependence(
    impl: Implementation, length: Probed, d_model: int, n_head: int, rng: np.random.Generator
) -> Measurements:
    """Stage 3: perturb position s; record which output positions t change.

    The MLP must change only t = s; causal attention may change every t >= s and never t < s.
    Counts are of (s, t) pairs whose output row changed at all (bitwise).
    """
    t_len, d = length, d_model
    x = rng.standard_normal((t_len, d))  # (T, d)
    w_in, w_out = rng.standard_normal((d, 4 * d)), rng.standard_normal((4 * d, d)) / 8
    w_q, w_k, w_v, w_o = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(4))
    mlp = impl["position_wise_mlp"]
    mha = impl["multi_head_attention"]

    def run_mlp(inp: Array) -> Array:
        return np.asarray(mlp(inp, w_in, w_out), dtype=np.float64)  # (T, d)

    def run_attention(inp: Array) -> Array:
        return np.asarray(mha(inp, w_q, w_k, w_v, w_o, n_head), dtype=np.float64)  # (T, d)

    base_mlp, base_att = run_mlp(x), run_attention(x)
    mlp_finite, att_finite = finite(base_mlp), finite(base_att)
    mlp_changed = np.zeros((t_len, t_len), dtype=bool)  # [s, t]: output t changed when s moved
    att_changed = np.zeros((t_len, t_len), dtype=bool)
    for s in range(t_len):
        moved = x.copy()
        moved[s] += rng.standard_normal(d)
        out_mlp, out_att = run_mlp(moved), run_attention(moved)
        mlp_finite, att_finite = mlp_finite and finite(out_mlp), att_finite and finite(out_att)
        mlp_changed[s] = np.any(out_mlp != base_mlp, axis=1)
        att_changed[s] = np.any(out_att != base_att, axis=1)
    s_idx, t_idx = np.indices((t_len, t_len))

    def pairs(changed: NDArray[np.bool_], where: NDArray[np.bool_], seen: bool) -> float:
        return int(np.count_nonzero(changed[where])) if seen else math.nan

    return {
        "mlp_changed_at_s": pairs(mlp_changed, s_idx == t_idx, mlp_finite),
        "mlp_changed_elsewhere": pairs(mlp_changed, s_idx != t_idx, mlp_finite),
        "attention_changed_s_le_t": pairs(att_changed, s_idx <= t_idx, att_finite),
        "attention_changed_s_gt_t": pairs(att_changed, s_idx > t_idx, att_finite),
    }


@check(
    "heads_as_weight_sets",
    needs=("multi_head_attention",),
    measures=(
        "max_abs_difference",
        "max_abs_difference_by_heads",
        "heads_checked",
        "scale_times_sqrt_head_size",
        "probe_other_head_max",
    ),
    context=("heads_checked",),
    precision={
        "max_abs_difference": "residue",
        "max_abs_difference_by_heads": "residue",
        "scale_times_sqrt_head_size": "residue",
        "probe_other_head_max": "residue",
    },
)
def heads_as_weight_sets(
    impl: Implementation, length: Probed, d_model: int, heads: list[int], rng: np.random.Generator
) -> Measurements:
    """Stage 4: H-head attention equals H one-head runs on weight slices, concatenated.

    When it does not, the two probes recorded beside it say why, under the contract's
    layout (head h owns columns h·hs:(h+1)·hs) and scale (1/√hs): ``scale_times_sqrt_head_size``
    is the score scale the implementation applied, times √hs, on a probe of four heads of
    size 2 at d = 8 (1.0 under the contract; √2 with no scale, 1/√2 with 1/hs, 1/2 with the
    model's 1/√d; anything else, or NaN, when the heads are laid out otherwise);
    ``probe_other_head_max`` is the largest output of
    a head whose columns hold only zeros (0 under the contract's layout).
    """
    mha = impl["multi_head_attention"]
    d = d_model
    x = rng.standard_normal((length, d))  # (T, d)
    w_q, w_k, w_v, w_o = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(4))
    by_heads = []
    for h in heads:
        hs = d // h
        together = np.asarray(mha(x, w_q, w_k, w_v, w_o, h), dtype=np.float64)  # (T, d)
        cols = [slice(i * hs, (i + 1) * hs) for i in range(h)]
        # each head alone: its own (d, hs) slices, and an identity output so it returns (T, hs)
        alone = [np.asarray(mha(x, w_q[:, c], w_k[:, c], w_v[:, c], np.eye(hs), 1)) for c in cols]
        apart = np.concatenate(alone, axis=1) @ w_o  # (T, H*hs) @ (d, d) -> (T, d)
        same = together.shape == apart.shape
        by_heads.append(float(np.max(np.abs(together - apart))) if same else math.inf)
    scale, other = _layout_probe(mha)
    return {
        "max_abs_difference": largest(by_heads),
        "max_abs_difference_by_heads": by_heads,
        "heads_checked": list(heads),
        "scale_times_sqrt_head_size": scale,
        "probe_other_head_max": other,
    }


def _layout_probe(mha: Any) -> tuple[float, float]:
    """Four heads of size 2 (d = 8, identity projections): the signal lives in head 0's
    columns 0:2 only, so the other heads see zeros. Row 1 attends to x_0 = e_1 and x_1 = e_0
    with scores (0, c·1), so its head-0 output is (w_1, w_0) with w_1 / w_0 = e^c: the scale
    c. With hs = 2 and d = 8 the usual mistakes give distinct values of c·√hs: 1 (1/√hs),
    1/√2 (1/hs), 1/2 (the model's 1/√d), √2 (no scale); with d = 4 the two in the middle
    would coincide (hs = √d)."""
    eye = np.eye(8)
    x = np.zeros((2, 8))  # (T=2, d=8)
    x[0, 1] = x[1, 0] = 1.0
    out = np.asarray(mha(x, eye, eye, eye, eye, 4), dtype=np.float64)
    if out.shape != (2, 8) or not np.all(np.isfinite(out)):
        return math.nan, math.nan
    ratio = out[1, 0] / out[1, 1] if out[1, 1] > 0 else math.nan
    scale = math.log(ratio) * math.sqrt(2) if ratio > 0 else math.nan
    return scale, float(np.max(np.abs(out[:, 2:])))
