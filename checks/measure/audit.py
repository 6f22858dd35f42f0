"""Checks for what a sentence-by-sentence audit of chapter 23 found untested.

Each check measures one statement of the running text that the chapter's tables do not
cover: the sampling asides of stage 6 (ranking under temperature in floating point, what no
sampling transform can change, top-p, greedy decoding, where sampling sits relative to the
training loss), the per-position operators of stage 3 besides the MLP, what the causal mask
costs, how heads own their slice of W_O, real position code behind "parameters do not
depend on T", the KV cache, the averaging model's cost, and published head counts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from checks.inputs import Count, Probed, ProbedList, QuadraticList
from checks.measure.common import (
    finite,
    increment_exponent,
    largest,
    permutation_residue,
    smallest,
    whole,
)
from checks.pack import check
from runner.pack import Implementation, Measurements, attempt

Array = NDArray[np.float64]
DTYPES = {"float16": np.float16, "float32": np.float32, "float64": np.float64}


def _prefix_softmax(scores: NDArray[np.float64]) -> NDArray[np.float64]:
    """Row t a softmax over scores[t, :t+1] and 0 beyond: the mask by its definition, from the
    scores alone (no weight of any kind)."""
    t_len = scores.shape[-1]
    out = np.zeros_like(scores)  # (T, T)
    for t in range(t_len):
        row = np.exp(scores[t, : t + 1] - scores[t, : t + 1].max())  # (t + 1,)
        out[t, : t + 1] = row / row.sum()
    return out


def _has_tie(p: NDArray[Any]) -> bool:
    """Two entries of p with exactly the same value (two NaNs count as one value, as for
    np.unique, whose first call would import numpy.ma)."""
    s = np.sort(p.ravel())  # NaNs sort last
    return bool(np.any(s[1:] == s[:-1]) or np.count_nonzero(np.isnan(s)) > 1)


def _slope(xs: Sequence[int], ys: Sequence[float]) -> float:
    """The log-log slope of ys against xs (least squares): the exponent p in y ∝ x^p; NaN
    where a y is not a finite positive number (a count returned as NaN)."""
    if not all(math.isfinite(y) and y > 0 for y in ys):
        return math.nan
    return float(np.polyfit(np.log(xs), np.log(ys), 1)[0])


# -- stage 6: temperature keeps the order only weakly ---------------------------------------
@check(
    "temperature_ties",
    needs=("softmax_temperature",),
    measures=(
        "temperatures_swept",
        "reversed_pairs",
        "non_finite",
        "tie_below",
        "first_tie_above",
        "first_tie_above_float16",
        "first_tie_above_float32",
        "first_tie_above_float64",
        "logit_order",
        "argsort_table",
        "argsort_low",
        "argsort_high",
        "probs_low",
    ),
    context=("temperatures_swept", "logit_order"),
    # which grid point first rounds a gap away is last-bit rounding of exp and the sum, and
    # NumPy's exp differs by CPU (its AVX-512 and AVX2 loops moved float64 from 7.9e15 to
    # 6.3e15): judged by its range on every run, not compared with the recorded one
    precision={
        "first_tie_above": "rounding",
        "first_tie_above_float16": "rounding",
        "first_tie_above_float32": "rounding",
        "first_tie_above_float64": "rounding",
    },
)
def temperature_ties(
    impl: Implementation,
    logits: list[float],
    table_temperatures: list[float],
    low_temperature: float,
    high_temperature: float,
    per_decade: Count,
    sweep: list[float],
) -> Measurements:
    """Stage 6: does temperature keep the ranking, in float16, float32 and float64?

    Over a log grid of T: pairs whose order temperature reverses (a larger logit getting a
    strictly smaller probability), and non-finite outputs. Per dtype: the temperature below
    which two probabilities tie (bisection, as the tails underflow to 0) and the first grid
    temperature above 1 where two tie (the gaps round away; not monotone in float32, hence a
    grid). The stable argsort at the table's temperatures, at a low and at a high one.
    """
    fn = impl["softmax_temperature"]
    z64 = np.asarray(logits, dtype=np.float64)  # (V,)
    decades = round(math.log10(sweep[1] / sweep[0]))
    grid = np.logspace(math.log10(sweep[0]), math.log10(sweep[1]), decades * per_decade + 1)
    larger = z64[:, None] > z64[None, :]  # (V, V) [i, j]: token i has the larger logit
    reversed_pairs = 0
    non_finite = 0
    tie_below: list[float] = []
    first_tie_above: list[float] = []
    for dtype in DTYPES.values():
        z = z64.astype(dtype)

        def probs(t: float, z: NDArray[Any] = z) -> NDArray[np.float64]:
            return np.asarray(fn(z, t), dtype=np.float64)  # (V,)

        above = math.nan
        swept = impl.each("softmax_temperature", [(z, float(t)) for t in grid])
        for t, answer in zip(grid, swept, strict=True):
            p = np.asarray(answer, dtype=np.float64)  # (V,)
            if not np.all(np.isfinite(p)):
                non_finite += 1
                continue
            reversed_pairs += int(np.count_nonzero(larger & (p[:, None] < p[None, :])))
            if t > 1 and math.isnan(above) and _has_tie(p):
                above = float(t)

        def tied(t: float, probs: Callable[[float], NDArray[np.float64]] = probs) -> bool:
            return _has_tie(probs(t))

        tie_below.append(_tie_threshold(tied))
        first_tie_above.append(above)

    def order(t: float) -> list[int]:
        return np.argsort(-np.asarray(fn(z64, t)), kind="stable").tolist()  # type: ignore[no-any-return]

    return {
        "temperatures_swept": [float(grid[0]), float(grid[-1]), int(grid.size)],
        "reversed_pairs": reversed_pairs,
        "non_finite": non_finite,
        "tie_below": tie_below,
        "first_tie_above": first_tie_above,
        **{f"first_tie_above_{name}": t for name, t in zip(DTYPES, first_tie_above, strict=True)},
        "logit_order": np.argsort(-z64, kind="stable").tolist(),
        "argsort_table": [order(t) for t in table_temperatures],
        "argsort_low": order(low_temperature),
        "argsort_high": order(high_temperature),
        "probs_low": np.asarray(fn(z64, low_temperature), dtype=np.float64).tolist(),
    }


def _tie_threshold(tied: Callable[[float], bool]) -> float:
    """The temperature below which ``tied(T)`` holds, by bisection in log T between T = 1
    (no tie expected) and the first halving of T that ties; NaN if none does by 1e-300."""
    hi = 1.0
    if tied(hi):
        return math.nan
    lo = hi / 2
    while not tied(lo):
        hi, lo = lo, lo / 2
        if lo < 1e-300:
            return math.nan
    for _ in range(40):  # a factor of 2 narrowed 2^40 times
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if tied(mid) else (lo, mid)
    return hi


# -- stage 6: what no sampling transform changes --------------------------------------------
@check(
    "sampling_keeps_the_top",
    needs=("softmax_temperature", "top_k_renormalize", "top_p_renormalize"),
    measures=(
        "cases",
        "top_changed",
        "reversed_pairs_among_kept",
        "top_probability_range",
        "kept_range",
    ),
    context=("cases",),
)
def sampling_keeps_the_top(
    impl: Implementation,
    vectors: Count,
    vocab: int,
    scale: float,
    temperatures: list[float],
    ks: list[int],
    ps: list[float],
    rng: np.random.Generator,
) -> Measurements:
    """Stage 6: temperature, top-k and top-p, alone and chained, on seeded logits: which
    token ranks first afterwards, and whether any two kept tokens swap places."""
    cases = changed = reversed_pairs = 0
    top_probs: list[float] = []
    kept: list[int] = []
    zs = [rng.standard_normal(vocab) * scale for _ in range(vectors)]  # (V,) each, distinct
    n_t = len(temperatures)
    # every vector's cases sent at once, function by function; i = vector * n_t + temperature
    f64 = np.float64
    pairs = [(z, t) for z in zs for t in temperatures]
    probs = [np.asarray(p, dtype=f64) for p in impl.each("softmax_temperature", pairs)]  # (V,)
    top_ks = impl.each("top_k_renormalize", [(p, k) for p in probs for k in ks])
    top_ps = impl.each("top_p_renormalize", [(p, q) for p in probs for q in ps])
    # chained: top-k (the last k), then top-p on what survives
    last_k = [np.asarray(top_ks[(i + 1) * len(ks) - 1]) for i in range(len(probs))]
    chained = impl.each("top_p_renormalize", [(r, ps[0]) for r in last_k])
    for v, z in enumerate(zs):
        first = int(np.argmax(z))  # the oracle: the largest logit
        larger = z[:, None] > z[None, :]  # (V, V)
        results = []
        for i in range(v * n_t, (v + 1) * n_t):
            results.append(probs[i])
            results.extend(
                np.asarray(r, dtype=f64) for r in top_ks[i * len(ks) : (i + 1) * len(ks)]
            )
            results.extend(
                np.asarray(r, dtype=f64) for r in top_ps[i * len(ps) : (i + 1) * len(ps)]
            )
            results.append(np.asarray(chained[i]))
        for r in results:
            cases += 1
            changed += int(np.argmax(r) != first or not np.isfinite(r).all())
            alive = r > 0
            both = larger & alive[:, None] & alive[None, :]
            reversed_pairs += int(np.count_nonzero(both & (r[:, None] < r[None, :])))
            top_probs.append(float(r[first]))
            kept.append(int(np.count_nonzero(alive)))
    return {
        "cases": cases,
        "top_changed": changed,
        "reversed_pairs_among_kept": reversed_pairs,
        "top_probability_range": [smallest(top_probs), largest(top_probs)],
        "kept_range": [smallest(kept), largest(kept)],
    }


# -- stage 6: top-p ------------------------------------------------------------------------
@check(
    "top_p_support",
    needs=("top_p_renormalize",),
    measures=("probs", "kept", "dropped_exact_zeros", "totals", "tie_case"),
)
def top_p_support(
    impl: Implementation, probs: list[float], ps: list[float], tie_probs: list[float], tie_p: float
) -> Measurements:
    """Stage 6 (top-p): for each p, the renormalized vector, how many tokens survive, that
    the others are exact zeros, and the sum; and a case with ties at the boundary."""
    fn = impl["top_p_renormalize"]
    x = np.asarray(probs, dtype=np.float64)  # (V,)
    outs = [np.asarray(fn(x, p), dtype=np.float64) for p in ps]
    return {
        "probs": [o.tolist() for o in outs],
        "kept": [int(np.count_nonzero(o)) for o in outs],
        # every entry that is not kept must be an exact 0: entries neither > 0 nor == 0
        # (negative or NaN) count against it
        "dropped_exact_zeros": [int(np.count_nonzero(o == 0.0)) for o in outs],
        "totals": [float(o.sum()) for o in outs],
        "tie_case": np.asarray(fn(np.asarray(tie_probs, dtype=np.float64), tie_p)).tolist(),
    }


@check(
    "top_p_adapts",
    needs=("softmax_temperature", "top_p_renormalize", "top_k_renormalize"),
    measures=(
        "top_p_kept",
        "top_k_kept",
        "kept_temperature_first",
        "kept_truncation_first",
        "top_k_same_set_either_order",
    ),
)
def top_p_adapts(
    impl: Implementation,
    logits: list[float],
    temperatures: list[float],
    p: float,
    k: int,
    reorder_temperature: float,
) -> Measurements:
    """Stage 6: top-p keeps as many tokens as the distribution's shape asks for, top-k a
    fixed k; and whether truncating before or after the temperature keeps the same tokens.

    Truncation first: the kept set is chosen on the T = 1 distribution, then the survivors'
    logits are divided by T; temperature first: the kept set is chosen on the T distribution.
    """
    softmax, top_p, top_k = (
        impl["softmax_temperature"],
        impl["top_p_renormalize"],
        impl["top_k_renormalize"],
    )
    z = np.asarray(logits, dtype=np.float64)  # (V,)

    def kept_set(q: Any) -> list[int] | None:
        """The tokens ``q`` keeps (its entries > 0); None when ``q`` is no distribution (a
        NaN, an infinity or a negative entry), whose tokens are neither kept nor dropped."""
        probs = np.asarray(q, dtype=np.float64)  # (V,)
        if not (np.all(np.isfinite(probs)) and np.all(probs >= 0)):
            return None
        kept: list[int] = np.flatnonzero(probs > 0).tolist()
        return kept

    def size(kept: list[int] | None) -> float:
        return math.nan if kept is None else len(kept)

    top_p_kept = [size(kept_set(top_p(softmax(z, t), p))) for t in temperatures]
    top_k_kept = [size(kept_set(top_k(softmax(z, t), k))) for t in temperatures]
    t = reorder_temperature
    temperature_first = kept_set(top_p(softmax(z, t), p))
    truncation_first = kept_set(top_p(softmax(z, 1.0), p))
    if truncation_first is not None:
        # dividing the survivors' logits by T afterwards cannot revive a dropped token
        survivors = kept_set(softmax(z[truncation_first], t))
        truncation_first = None if survivors is None else [truncation_first[i] for i in survivors]
    same = True
    for t_ in temperatures:
        either = kept_set(top_k(softmax(z, t_), k)), kept_set(top_k(softmax(z, 1.0), k))
        same = either[0] is not None and either[0] == either[1]
        if not same:
            break
    return {
        "top_p_kept": top_p_kept,
        "top_k_kept": top_k_kept,
        "kept_temperature_first": size(temperature_first),
        "kept_truncation_first": size(truncation_first),
        "top_k_same_set_either_order": same,
    }


# -- stage 6 and the fault table: greedy decoding is the T = 0 path --------------------------
@check(
    "greedy_path",
    needs=("greedy_token", "softmax_temperature", "top_k_renormalize"),
    measures=(
        "mismatches_with_argmax",
        "mismatches_with_top_1",
        "mismatches_with_low_temperature_mode",
        "returns_integers",
        "tie_choice",
        "chapter_greedy",
        "chapter_top_probability",
        "softmax_at_zero",
    ),
)
def greedy_path(
    impl: Implementation,
    vectors: Count,
    vocab: int,
    logits: list[float],
    low_temperature: float,
    tie_logits: list[float],
    rng: np.random.Generator,
) -> Measurements:
    """Stage 6: greedy decoding returns the argmax; it is what top-1 keeps and what the
    temperature distribution concentrates on as T → 0, while softmax itself refuses T = 0."""
    greedy, softmax = impl["greedy_token"], impl["softmax_temperature"]
    argmax = top1 = mode = 0
    integers = True
    zs = [rng.standard_normal(vocab) * 3.0 for _ in range(vectors)]  # (V,) each
    chosen = impl.each("greedy_token", [(z,) for z in zs])
    at_one = impl.each("softmax_temperature", [(z, 1.0) for z in zs])
    top_1 = impl.each("top_k_renormalize", [(p, 1) for p in at_one])
    cold = impl.each("softmax_temperature", [(z, low_temperature) for z in zs])
    for z, g, kept_1, p_cold in zip(zs, chosen, top_1, cold, strict=True):
        integers &= isinstance(g, int | np.integer) and not isinstance(g, bool)
        argmax += int(g != int(np.argmax(z)))
        # the one token top-1 keeps: a second entry not exactly 0 (a NaN among them) is a
        # mismatch too
        kept = np.flatnonzero(np.asarray(kept_1) != 0)
        top1 += int(kept.size != 1 or g != int(kept[0]))
        mode += int(g != int(np.argmax(np.asarray(p_cold))))
    z = np.asarray(logits, dtype=np.float64)
    chapter = whole(greedy(z))
    return {
        "mismatches_with_argmax": argmax,
        "mismatches_with_top_1": top1,
        "mismatches_with_low_temperature_mode": mode,
        "returns_integers": bool(integers),
        "tie_choice": whole(greedy(np.asarray(tie_logits, dtype=np.float64))),
        "chapter_greedy": chapter,
        "chapter_top_probability": (
            float(np.asarray(softmax(z, low_temperature))[chapter])
            if isinstance(chapter, int) and 0 <= chapter < z.size
            else math.nan
        ),
        "softmax_at_zero": attempt(softmax, z, 0.0),
    }


# -- stage 6: sampling is not part of the training loss -------------------------------------
@check(
    "sampling_outside_the_loss",
    needs=("softmax_temperature", "top_k_renormalize", "top_p_renormalize"),
    measures=(
        "loss_by_temperature",
        "target_probability_after_top_k",
        "target_probability_after_top_p",
        "vocabulary_permutation_residue",
    ),
    precision={"vocabulary_permutation_residue": "residue"},
)
def sampling_outside_the_loss(
    impl: Implementation,
    logits: list[float],
    target: int,
    temperatures: list[float],
    k: int,
    p: float,
    rng: np.random.Generator,
) -> Measurements:
    """Stage 6: what the training loss −log p(target) would become if temperature, top-k or
    top-p sat before it, and whether any of them holds a weight it could change: with no
    weight per token (a learned bias, a table read from anywhere), reordering the vocabulary
    reorders the output the same way, on logits and probabilities without ties."""
    softmax, top_k, top_p = (
        impl["softmax_temperature"],
        impl["top_k_renormalize"],
        impl["top_p_renormalize"],
    )
    z = np.asarray(logits, dtype=np.float64)  # (V,)
    losses = [-math.log(float(np.asarray(softmax(z, t))[target])) for t in temperatures]
    p1 = np.asarray(softmax(z, 1.0), dtype=np.float64)
    return {
        "loss_by_temperature": losses,
        "target_probability_after_top_k": float(np.asarray(top_k(p1, k))[target]),
        "target_probability_after_top_p": float(np.asarray(top_p(p1, p))[target]),
        "vocabulary_permutation_residue": [
            permutation_residue(fn, (vector,), ("V",), rng, out_axis="V")
            for fn, vector in (
                (lambda z: softmax(z, 1.0), z),
                (lambda p_: top_k(p_, k), p1),
                (lambda p_: top_p(p_, p), p1),
            )
        ],
    }


# -- stage 3: the other per-position operators ----------------------------------------------
@check(
    "per_position_blocks",
    needs=("layer_norm", "embedding_lookup", "output_head", "position_wise_mlp"),
    measures=(
        "changed_at_s",
        "changed_elsewhere",
        "rows_alone_difference",
        "max_rows_alone_difference",
        "layer_norm_difference",
        "embedding_difference",
        "output_head_difference",
        "output_head_shape",
        "weights_by_length",
    ),
    context=("weights_by_length",),
    precision={
        "rows_alone_difference": "residue",
        "max_rows_alone_difference": "residue",
        "layer_norm_difference": "residue",
        "output_head_difference": "residue",
    },
)
def per_position_blocks(
    impl: Implementation,
    lengths: ProbedList,
    d_model: int,
    vocab: int,
    rng: np.random.Generator,
) -> Measurements:
    """Stage 3: LayerNorm, the embedding lookup, the output head and the MLP each act on one
    position: perturbing position s moves only output s, every row computed alone equals the
    batch, and the same weight arrays serve every T.

    Per block, in the order layer_norm, embedding_lookup, output_head, position_wise_mlp.
    """
    d = d_model
    gain, bias = 1.0 + rng.standard_normal(d) / 4, rng.standard_normal(d) / 4  # (d,) each
    table = rng.standard_normal((vocab, d))  # (V, d)
    w_in, w_out = rng.standard_normal((d, 4 * d)) / 4, rng.standard_normal((4 * d, d)) / 8
    weights: dict[str, tuple[Array, ...]] = {  # each block's arguments after its input
        "layer_norm": (gain, bias),
        "embedding_lookup": (table,),
        "output_head": (table,),
        "position_wise_mlp": (w_in, w_out),
    }

    def run_each(name: str, inputs: list[Any]) -> list[Array]:
        """The block on each input, the calls sent together."""
        calls = [(x, *weights[name]) for x in inputs]
        return [np.asarray(out, dtype=np.float64) for out in impl.each(name, calls)]

    at_s: list[float] = []
    elsewhere: list[float] = []
    alone: list[float] = []
    t_len = lengths[0]
    for name in weights:
        token_input = name == "embedding_lookup"
        x = rng.integers(0, vocab, t_len) if token_input else rng.standard_normal((t_len, d))
        moved = []  # [s]: x with position s alone changed
        for s in range(t_len):
            one = x.copy()
            if token_input:
                one[s] = (one[s] + 1 + rng.integers(0, vocab - 1)) % vocab  # another id
            else:
                one[s] += rng.standard_normal(d)
            moved.append(one)
        # every T: the same weights, the batch against each row alone
        xls = [
            rng.integers(0, vocab, length) if token_input else rng.standard_normal((length, d))
            for length in lengths
        ]
        rows_alone = [xl[i : i + 1] for xl in xls for i in range(len(xl))]
        outs = run_each(name, [x, *moved, *xls, *rows_alone])
        base, outs = outs[0], outs[1:]
        changed = np.zeros((t_len, t_len), dtype=bool)  # [s, t]: output t moved when s did
        for s in range(t_len):
            changed[s] = np.any(outs[s] != base, axis=1)
        seen = finite(base, *outs[:t_len])
        at_s.append(int(np.count_nonzero(np.diag(changed))) if seen else math.nan)
        elsewhere.append(
            int(np.count_nonzero(changed & ~np.eye(t_len, dtype=bool))) if seen else math.nan
        )
        together, rows = outs[t_len : t_len + len(xls)], outs[t_len + len(xls) :]
        worst, start = 0.0, 0
        for xl, batch in zip(xls, together, strict=True):
            alone_rows = np.concatenate(rows[start : start + len(xl)], axis=0)
            start += len(xl)
            worst = largest((worst, float(np.max(np.abs(batch - alone_rows)))))
        alone.append(worst)
    # each block against its definition
    x = rng.standard_normal((t_len, d))
    mean, var = x.mean(axis=1, keepdims=True), x.var(axis=1, keepdims=True)
    ln = (x - mean) / np.sqrt(var + 1e-5) * gain + bias  # GPT-2's LayerNorm, eps = 1e-5
    ids = rng.integers(0, vocab, t_len)
    head = np.asarray(impl["output_head"](x, table), dtype=np.float64)
    return {
        "changed_at_s": at_s,
        "changed_elsewhere": elsewhere,
        "rows_alone_difference": alone,
        "max_rows_alone_difference": largest(alone),
        "layer_norm_difference": float(np.max(np.abs(run_each("layer_norm", [x])[0] - ln))),
        "embedding_difference": float(
            np.max(np.abs(run_each("embedding_lookup", [ids])[0] - table[ids]))
        ),
        "output_head_difference": float(np.max(np.abs(head - x @ table.T))),
        "output_head_shape": list(head.shape),
        # the arrays each block was given, the same at every T: gain and bias, the table,
        # nothing beyond the (tied) table, and the MLP's two matrices
        "weights_by_length": [gain.size + bias.size, table.size, 0, w_in.size + w_out.size],
    }


# -- stage 5: what the mask costs ------------------------------------------------------------
@check(
    "mask_costs",
    needs=("causal_masked_attention",),
    measures=(
        "max_difference_from_prefix_softmax",
        "future_entries_read",
        "visible_entries_read",
        "changed_by_future_scores",
        "fraction_needed",
    ),
    context=("fraction_needed",),
    precision={"max_difference_from_prefix_softmax": "residue"},
)
def mask_costs(
    impl: Implementation, length: Probed, draws: Count, rng: np.random.Generator
) -> Measurements:
    """Stage 5: the mask takes no weight, and the masked scores are never read.

    No weight: its weights are the softmax of each row's visible prefix of the scores alone,
    computed here from the scores (a weight of its own, a learned bias or temperature read
    from anywhere, would move them).

    Each of the T² scores is moved on its own (by a random amount up to 1e3, finite, so an
    additive −∞ mask still works); an entry is read when some weight changes at all. Then the
    whole future is replaced by random finite values ``draws`` times.
    """
    fn = impl["causal_masked_attention"]
    scores = rng.standard_normal((length, length)) * 3.0  # (T, T)
    base = np.asarray(fn(scores), dtype=np.float64)  # (T, T)
    read = np.zeros((length, length), dtype=bool)  # [t, s]: moving score (t, s) moved a weight
    for t in range(length):
        for s in range(length):
            moved = scores.copy()
            moved[t, s] += rng.uniform(-1e3, 1e3)
            read[t, s] = not np.array_equal(np.asarray(fn(moved), dtype=np.float64), base)
    future = np.triu(np.ones((length, length), dtype=bool), k=1)  # (T, T), s > t
    changed = 0
    for _ in range(draws):
        garbage = np.where(future, rng.uniform(-1e3, 1e3, (length, length)), scores)
        changed += int(np.count_nonzero(np.asarray(fn(garbage), dtype=np.float64) != base))
    return {
        "max_difference_from_prefix_softmax": float(np.max(np.abs(base - _prefix_softmax(scores)))),
        "future_entries_read": int(np.count_nonzero(read & future)),
        "visible_entries_read": int(np.count_nonzero(read & ~future)),
        "changed_by_future_scores": changed,
        # the share of the T² scores a causal computation needs: the prefix, T(T+1)/2
        "fraction_needed": (length * (length + 1) // 2) / (length * length),
    }


# -- stage 4: each head owns a block of every weight, W_O included ---------------------------
def _one_head(x: Array, w_q: Array, w_k: Array, w_v: Array, w_o: Array) -> Array:
    """One head of causal attention, written out: softmax(mask(q kᵀ / √hs)) v W_O."""
    q, k, v = x @ w_q, x @ w_k, x @ w_v  # (T, hs) each
    t_len, hs = q.shape
    scores = q @ k.T / math.sqrt(hs)  # (T, T)
    scores = np.where(np.triu(np.ones((t_len, t_len), dtype=bool), k=1), -np.inf, scores)
    a = np.exp(scores - scores.max(axis=1, keepdims=True))
    return (a / a.sum(axis=1, keepdims=True)) @ v @ w_o  # type: ignore[no-any-return]


@check(
    "heads_own_output_blocks",
    needs=("multi_head_attention",),
    measures=(
        "max_abs_difference",
        "head_oracle_difference",
        "head_output_shape",
        "per_head_parameters",
        "total_parameters",
    ),
    context=("per_head_parameters", "total_parameters"),
    precision={"max_abs_difference": "residue", "head_oracle_difference": "residue"},
)
def heads_own_output_blocks(
    impl: Implementation, length: Probed, d_model: int, heads: list[int], rng: np.random.Generator
) -> Measurements:
    """Stage 4: H-head attention is the sum over heads h of one-head attention run with the
    columns of W_Q, W_K, W_V and the rows of W_O that belong to h:
    concat(heads)·W_O = Σ_h head_h·W_O[rows of h]. Each term maps (T, d) to (T, d), and
    each is checked against one-head causal attention written out here, softmax(q kᵀ / √hs)
    with hs the head's width, so a sum of consistently mis-scaled heads does not pass."""
    mha = impl["multi_head_attention"]
    d = d_model
    x = rng.standard_normal((length, d))  # (T, d)
    w_q, w_k, w_v, w_o = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(4))
    worst = oracle = 0.0
    shape: list[int] = []
    per_head: list[int] = []
    totals: list[int] = []
    for h in heads:
        hs = d // h
        together = np.asarray(mha(x, w_q, w_k, w_v, w_o, h), dtype=np.float64)  # (T, d)
        total = np.zeros_like(together)
        sizes = []
        for i in range(h):
            c = slice(i * hs, (i + 1) * hs)
            blocks = (w_q[:, c], w_k[:, c], w_v[:, c], w_o[c, :])  # (d, hs) ×3, (hs, d)
            term = np.asarray(mha(x, *blocks, 1), dtype=np.float64)  # (T, d)
            oracle = largest((oracle, float(np.max(np.abs(term - _one_head(x, *blocks))))))
            shape = list(term.shape)
            total += term
            sizes.append(sum(b.size for b in blocks))
        worst = largest((worst, float(np.max(np.abs(together - total)))))
        per_head.append(sizes[0])
        totals.append(sum(sizes))
    return {
        "max_abs_difference": worst,
        "head_oracle_difference": oracle,
        "head_output_shape": shape,
        "per_head_parameters": per_head,
        "total_parameters": totals,
    }


# -- stage 3: real position code behind "parameters do not depend on T" ---------------------
class _Reads(Mapping[str, Array]):
    """Weights by name, remembering which ones a forward pass read."""

    def __init__(self, arrays: dict[str, Array]) -> None:
        self.arrays = arrays
        self.read: set[str] = set()

    def __getitem__(self, name: str) -> Array:
        self.read.add(name)
        return self.arrays[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.arrays)

    def __len__(self) -> int:
        return len(self.arrays)

    def size_read(self) -> int:
        return sum(self.arrays[n].size for n in self.read)


def _tiny_forward(impl: Implementation, tokens: NDArray[Any], kind: str, w: _Reads) -> Array:
    """A one-layer, one-head causal decoder with tied output: logits (T, V).

    Positions by ``kind``: none; sinusoidal (added to the input); rope (rotating q and k);
    learned (rows of a ``wpe`` table, which must have a row for every position).
    """
    t_len = tokens.shape[0]
    x = w["wte"][tokens]  # (T, d)
    if kind == "learned":
        wpe = w["wpe"]
        if wpe.shape[0] < t_len:
            raise ValueError(f"a learned table of {wpe.shape[0]} rows cannot run T = {t_len}")
        x = x + wpe[:t_len]
    elif kind == "sinusoidal":
        x = x + np.asarray(impl["sinusoidal_positions"](t_len, x.shape[1]), dtype=np.float64)
    q, k, v = x @ w["w_q"], x @ w["w_k"], x @ w["w_v"]  # (T, d) each
    if kind == "rope":
        q = np.asarray(impl["rotary_embedding"](q), dtype=np.float64)
        k = np.asarray(impl["rotary_embedding"](k), dtype=np.float64)
    scores = q @ k.T / math.sqrt(q.shape[1])  # (T, T)
    scores = np.where(np.triu(np.ones((t_len, t_len), dtype=bool), k=1), -np.inf, scores)
    a = np.exp(scores - scores.max(axis=1, keepdims=True))
    a /= a.sum(axis=1, keepdims=True)  # (T, T)
    out = (a @ v) @ w["w_o"]  # (T, d)
    return out @ w["wte"].T  # type: ignore[no-any-return]


@check(
    "position_code",
    needs=("sinusoidal_positions", "rotary_embedding"),
    measures=(
        "parameters_read",
        "change_none",
        "change_sinusoidal",
        "change_rope",
        "change_learned",
        "order_effect_none",
        "order_effect_sinusoidal",
        "order_effect_rope",
        "order_effect_learned",
        "sinusoidal_formula_difference",
        "rotary_formula_difference",
        "rotary_norm_change",
        "rotary_shift_difference",
        "rotary_offset_difference",
        "sinusoidal_shape_at_long_context",
    ),
    context=(
        "parameters_read",
        "change_none",
        "change_sinusoidal",
        "change_rope",
        "change_learned",
    ),
    precision={
        "order_effect_none": "residue",
        "sinusoidal_formula_difference": "residue",
        "rotary_formula_difference": "residue",
        "rotary_norm_change": "residue",
        "rotary_shift_difference": "residue",
        "rotary_offset_difference": "residue",
    },
)
def position_code(
    impl: Implementation,
    vocab: int,
    d_model: int,
    lengths: ProbedList,
    long_context: int,
    shift: int,
    rng: np.random.Generator,
) -> Measurements:
    """Stage 3: what a forward pass needs for each way of giving positions, at two T.

    A tiny decoder (check code) runs with no positions, sinusoidal positions and rotary
    embeddings (the implementation's code) and a learned table; the weights it reads are
    counted at each T. The order effect is how much the last position's logits move when
    the earlier tokens are permuted (relative): with no positions attention sees a bag.
    The position code is checked against its formula, and rotary against its two promises:
    norms kept, and q_m·k_n unchanged when every position shifts by the same amount.
    """
    d = d_model
    base = {
        "wte": rng.standard_normal((vocab, d)),
        **{
            name: rng.standard_normal((d, d)) / math.sqrt(d)
            for name in ("w_q", "w_k", "w_v", "w_o")
        },
    }
    kinds = ("none", "sinusoidal", "rope", "learned")
    read: dict[str, list[int]] = {kind: [] for kind in kinds}
    for t_len in lengths:
        tokens = rng.integers(0, vocab, t_len)
        for kind in kinds:
            arrays = dict(base)
            if kind == "learned":  # the smallest table that runs T: one row per position
                arrays["wpe"] = rng.standard_normal((t_len, d)) / 4
            w = _Reads(arrays)
            _tiny_forward(impl, tokens, kind, w)
            read[kind].append(w.size_read())
    # order: permute the first T-1 tokens (a rotation by one), keep the last
    t_len = lengths[0]
    tokens = rng.permutation(vocab)[:t_len]  # distinct tokens, so the permutation changes them
    permuted = np.concatenate([np.roll(tokens[:-1], 1), tokens[-1:]])
    wpe = rng.standard_normal((t_len, d)) / 4
    order_effect: dict[str, float] = {}
    for kind in kinds:
        arrays = {**base, "wpe": wpe}
        last = _tiny_forward(impl, tokens, kind, _Reads(arrays))[-1]  # (V,)
        last_p = _tiny_forward(impl, permuted, kind, _Reads(arrays))[-1]
        order_effect[kind] = float(np.linalg.norm(last - last_p) / np.linalg.norm(last))
    # the position code against its formulas
    t_len = lengths[-1]
    pos = np.arange(t_len, dtype=np.float64)[:, None]  # (T, 1)
    omega = 10000.0 ** (-np.arange(0, d, 2) / d)  # (d/2,)
    formula = np.zeros((t_len, d))
    formula[:, 0::2], formula[:, 1::2] = np.sin(pos * omega), np.cos(pos * omega)
    pe = np.asarray(impl["sinusoidal_positions"](t_len, d), dtype=np.float64)
    q, k = rng.standard_normal((t_len, d)), rng.standard_normal((t_len, d))
    rot_q = np.asarray(impl["rotary_embedding"](q), dtype=np.float64)
    rot_k = np.asarray(impl["rotary_embedding"](k), dtype=np.float64)
    expected = np.empty_like(q)
    for t in range(t_len):
        for i in range(d // 2):  # the 2×2 rotation of pair i at position t
            c, s = math.cos(t * omega[i]), math.sin(t * omega[i])
            a, b = q[t, 2 * i], q[t, 2 * i + 1]
            expected[t, 2 * i], expected[t, 2 * i + 1] = a * c - b * s, a * s + b * c
    shifted_q = np.asarray(impl["rotary_embedding"](q, shift), dtype=np.float64)
    shifted_k = np.asarray(impl["rotary_embedding"](k, shift), dtype=np.float64)
    # rows at offset `shift` are the rows `shift` positions further down an unshifted run
    later = np.asarray(impl["rotary_embedding"](q[shift:], shift), dtype=np.float64)
    long_pe = np.asarray(impl["sinusoidal_positions"](long_context, d))
    return {
        "parameters_read": read,
        **{f"change_{kind}": read[kind][-1] - read[kind][0] for kind in kinds},
        **{f"order_effect_{kind}": order_effect[kind] for kind in kinds},
        "sinusoidal_formula_difference": float(np.max(np.abs(pe - formula)))
        if pe.shape == formula.shape
        else math.inf,
        "rotary_formula_difference": float(np.max(np.abs(rot_q - expected))),
        "rotary_norm_change": float(
            np.max(np.abs(np.linalg.norm(rot_q, axis=1) - np.linalg.norm(q, axis=1)))
        ),
        "rotary_shift_difference": float(np.max(np.abs(rot_q @ rot_k.T - shifted_q @ shifted_k.T))),
        "rotary_offset_difference": float(np.max(np.abs(later - rot_q[shift:]))),
        "sinusoidal_shape_at_long_context": list(long_pe.shape),
    }


# -- stages 3 and 7: the KV cache --------------------------------------------------------------
@check(
    "kv_cache_decoding",
    needs=("multi_head_attention", "kv_cache_bytes"),
    measures=(
        "max_abs_difference",
        "cache_bytes_mismatch",
        "bytes",
        "mib",
        "ratio_to_first",
        "slope",
    ),
    precision={"max_abs_difference": "residue"},
)
def kv_cache_decoding(
    impl: Implementation,
    length: Probed,
    d_model: int,
    n_head: int,
    tokens: list[int],
    n_layer: int,
    model_width: int,
    bytes_per_value: int,
    rng: np.random.Generator,
) -> Measurements:
    """Stages 3 and 7: decode one token at a time, keeping every past key and value, and
    compare with the parallel forward; the cache's size against kv_cache_bytes; and the
    cache of an ``n_layer`` × ``model_width`` model for each count of ``tokens``.

    The step-by-step decoder is check code: at step t it projects token t only, appends its
    key and value to the cache, and attends from its query to the whole cache.
    """
    mha, cache_bytes = impl["multi_head_attention"], impl["kv_cache_bytes"]
    d, hs = d_model, d_model // n_head
    x = rng.standard_normal((length, d))  # (T, d)
    w_q, w_k, w_v, w_o = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(4))
    parallel = np.asarray(mha(x, w_q, w_k, w_v, w_o, n_head), dtype=np.float64)  # (T, d)
    keys = np.empty((0, d))  # (t, d): one layer's cache, one row per token so far
    values = np.empty((0, d))
    worst = 0.0
    mismatch: float = 0
    for t in range(length):
        keys = np.concatenate([keys, x[t : t + 1] @ w_k])  # (t+1, d)
        values = np.concatenate([values, x[t : t + 1] @ w_v])
        q = x[t] @ w_q  # (d,) only the new token's query is needed
        out = np.empty(d)
        for h in range(n_head):
            c = slice(h * hs, (h + 1) * hs)
            s = keys[:, c] @ q[c] / math.sqrt(hs)  # (t+1,)
            a = np.exp(s - s.max())
            out[c] = (a / a.sum()) @ values[:, c]
        worst = largest((worst, float(np.max(np.abs(out @ w_o - parallel[t])))))
        counted = whole(cache_bytes(1, t + 1, 1, d, keys.itemsize))
        mismatch = largest((mismatch, abs(counted - (keys.nbytes + values.nbytes))))
    sizes = [whole(cache_bytes(1, t, n_layer, model_width, bytes_per_value)) for t in tokens]
    return {
        "max_abs_difference": worst,
        "cache_bytes_mismatch": mismatch,
        "bytes": sizes,
        "mib": [s / 2**20 for s in sizes],
        "ratio_to_first": [s / sizes[0] for s in sizes],
        "slope": _slope(tokens, sizes),
    }


# -- stage 2: what the averaging model pays ------------------------------------------------------
@check(
    "averaging_cost",
    needs=("averaging_model",),
    measures=("peak_bytes", "peak_bytes_per_position", "slope", "growth_exponent"),
    precision={
        "peak_bytes": "memory",
        "peak_bytes_per_position": "memory",
        "slope": "memory",
        "growth_exponent": "memory",
    },
)
def averaging_cost(
    impl: Implementation, lengths: QuadraticList, d_model: int, rng: np.random.Generator
) -> Measurements:
    """Stage 2: the peak memory one call of the averaging model allocates, as T grows
    (measured where the function runs: tracemalloc sees NumPy's arrays).

    ``growth_exponent`` is how the peak's increments grow against T's last two increments:
    1 for a peak a + b·T whatever its fixed part a (a buffer of a few hundred rows, reused
    from chunk to chunk), 2 for a term in T². The log-log ``slope`` of the peaks themselves
    falls well below 1 when a is large, though such a peak grows linearly all the same; and
    where the peak is the larger of two linear phases, the increments read up to 2 while the
    slope stays near 1: the exponent is the smaller of the two (a term in T² raises both).

    Each measured call comes after an unmeasured one on one row more: a buffer
    allocated on first use and kept (a workspace of 256 rows, grown to what a call needs) is
    then no measured call's, where it would make the first peak alone carry it (a correct
    learner's workspace read as a T² term, exponent 2.00; a correct-learner round,
    2026-12-07). Not the same T: a (T, T) averaging matrix kept per T between calls was
    built by the unmeasured call and passed (a buggy-learner round, 2026-12-07)."""
    peaks: list[int] = []
    for t_len in lengths:
        x = rng.standard_normal((t_len, d_model))  # (T, d)
        # (T + 1, d), from a generator of its own: the measured x are those of every version
        impl["averaging_model"](np.random.default_rng(t_len).standard_normal((t_len + 1, d_model)))
        _, peak = impl.measured("averaging_model", x)
        peaks.append(int(peak) if peak is not None else 0)
    slope = _slope(lengths, peaks) if smallest(peaks) > 0 else math.nan
    increments = increment_exponent(lengths, peaks)
    # a peak that is the larger of two linear phases (a chunk's workspace while computing,
    # then the result and a copy of it) has increments that grow as if in T², while the
    # peaks themselves grow no faster than T (a correct-learner round, 2026-12-08): a term
    # in T² raises both, so the growth is the smaller of the two
    finite = [g for g in (increments, slope) if math.isfinite(g)]
    return {
        "peak_bytes": peaks,
        "peak_bytes_per_position": [p / t for p, t in zip(peaks, lengths, strict=True)],
        "slope": slope,
        "growth_exponent": min(finite) if len(finite) == 2 else increments,
    }


# -- stage 4's aside: how many heads published models have -------------------------------------
@check(
    "published_head_counts",
    needs=("transformer_parameter_count",),
    measures=(
        "parameters",
        "relative_to_published",
        "largest_deviation_from_published",
        "log10_parameters",
        "heads",
        "head_width",
        "heads_near_1e10",
        "log10_where_heads_reach_90",
        "head_width_range",
        "width_growth",
        "heads_growth",
    ),
    context=("heads", "head_width", "head_width_range", "width_growth", "heads_growth"),
)
def published_head_counts(
    impl: Implementation, vocab: int, n_ctx: int, models: list[list[Any]]
) -> Measurements:
    """Stage 4: published GPT-3 configurations (n_layer, d_model, n_head, n_params), their
    parameters counted by the implementation (GPT-2 style: learned positions, biases,
    LayerNorms, tied head, d_ff = 4d), and their heads and head widths by scale."""
    count = impl["transformer_parameter_count"]
    params: list[float] = []
    for _name, n_layer, d_model, n_head, _published in models:
        table = count(
            vocab,
            d_model,
            n_layer,
            4 * d_model,
            n_ctx,
            n_head=n_head,
            positions="learned",
            biases=True,
            layernorm=True,
        )
        params.append(whole(table["total"]))
    logs = [math.log10(p) for p in params]
    ratios = [p / float(m[4]) for p, m in zip(params, models, strict=True)]
    heads = [int(m[3]) for m in models]
    widths = [int(m[2]) // int(m[3]) for m in models]
    near = [h for h, lg in zip(heads, logs, strict=True) if 9.5 <= lg < 10.5]
    reach = [lg for h, lg in zip(heads, logs, strict=True) if h >= 90]
    return {
        "parameters": params,
        "relative_to_published": ratios,
        "largest_deviation_from_published": largest(abs(r - 1.0) for r in ratios),
        "log10_parameters": logs,
        "heads": heads,
        "head_width": widths,
        "heads_near_1e10": near,
        "log10_where_heads_reach_90": smallest(reach) if reach else math.nan,
        "head_width_range": [min(widths), max(widths)],
        "width_growth": int(models[-1][2]) / int(models[0][2]),
        "heads_growth": heads[-1] / heads[0],
    }
