"""The reference keeps its contract at the edges, checked against exact arithmetic.

The claims compare every implementation with the reference (13-contract.yaml), so the
reference must be right where those comparisons reach: counts exact for any size and for
NumPy integers (Python ints and ``fractions.Fraction`` as oracles), one integer rule in every
function (NumPy integers accepted, bools and floats refused), no NaN for finite inputs in
any dtype, and its own ValueError for every invalid argument, never NumPy's errors.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from runner.pack.registry import measure_locally
from tests.conftest import REGISTRY

REF = REGISTRY.reference()
PROPERTY = settings(max_examples=60, deadline=None)
NUMPY_INTS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


def integer_of(draw: Any, low: int, high: int) -> Any:
    """A Python int or a NumPy integer of a type that can hold it, as a learner may pass."""
    value = draw(st.integers(low, high))
    kinds = [int, *(t for t in NUMPY_INTS if np.iinfo(t).min <= value <= np.iinfo(t).max)]
    return draw(st.sampled_from(kinds))(value)


# -- one integer rule in every function ----------------------------------------------------------
def _arrays(t: int = 3, d: int = 4) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {"x": rng.standard_normal((t, d)), "w": rng.standard_normal((d, d))}


def _calls() -> list[tuple[str, Callable[[Any], Any]]]:
    """(name, call with the integer argument replaced by the given value) for every integer
    argument of every chapter function."""
    a = _arrays()
    x, w = a["x"], a["w"]
    probs = np.array([0.5, 0.3, 0.2])
    w_in, w_out = np.ones((3, 4, 5)), np.ones((3, 5, 4))
    count = REF["transformer_parameter_count"]
    return [
        ("support vocab", lambda v: REF["sequence_support_log10"](v, 3)),
        ("support length", lambda v: REF["sequence_support_log10"](5, v)),
        ("giant hidden", lambda v: REF["giant_mlp_parameter_log10"](5, 3, v)),
        ("attention d_model", lambda v: REF["attention_parameter_count"](v, 1)),
        ("attention n_head", lambda v: REF["attention_parameter_count"](4, v)),
        ("count vocab", lambda v: count(v, 8, 2, 16, 10)),
        ("count d_model", lambda v: count(10, v, 2, 16, 10)),
        ("count n_layer", lambda v: count(10, 8, v, 16, 10)),
        ("count d_ff", lambda v: count(10, 8, 2, v, 10)),
        ("count context_length", lambda v: count(10, 8, 2, 16, v, positions="learned")),
        ("count n_head", lambda v: count(10, 8, 2, 16, 10, n_head=v)),
        ("logits batch", lambda v: REF["logits_memory_bytes"](v, 3, 4, 4)),
        ("logits length", lambda v: REF["logits_memory_bytes"](1, v, 4, 4)),
        ("logits vocab", lambda v: REF["logits_memory_bytes"](1, 3, v, 4)),
        ("logits bytes_per_value", lambda v: REF["logits_memory_bytes"](1, 3, 4, v)),
        ("moe count d_model", lambda v: REF["moe_parameter_count"](v, 4, 2)),
        ("moe count d_ff", lambda v: REF["moe_parameter_count"](4, v, 2)),
        ("moe count n_experts", lambda v: REF["moe_parameter_count"](4, 4, v)),
        ("top-k k", lambda v: REF["top_k_renormalize"](probs, v)),
        ("mha n_head", lambda v: REF["multi_head_attention"](x, w, w, w, w, v)),
        ("flash block", lambda v: REF["flash_attention"](x, x, x, v)),
        ("moe top_k", lambda v: REF["moe_layer"](x, np.ones((4, 3)), w_in, w_out, v)),
        ("chain token", lambda v: REF["chain_rule_nll"](np.full((2, 2), 0.25), [v, 0])),
    ]


CALLS = _calls()


@pytest.mark.parametrize(("name", "call"), CALLS, ids=[c[0] for c in CALLS])
@pytest.mark.parametrize("bad", [True, False, 2.0, 2.5, np.float64(2.0), "2", None, np.True_])
def test_an_integer_argument_refuses_anything_but_an_integer(name, call, bad):
    if name == "count n_head" and bad is None:
        return  # None is n_head's documented default: "not given"
    with pytest.raises(ValueError):
        call(bad)


@pytest.mark.parametrize(("name", "call"), CALLS, ids=[c[0] for c in CALLS])
@pytest.mark.parametrize("kind", [np.int8, np.int32, np.int64, np.uint16, np.uint64])
def test_an_integer_argument_takes_numpy_integers_as_python_ints(name, call, kind):
    value = 1 if name in ("chain token",) else 2
    expected, got = call(value), call(kind(value))
    if isinstance(expected, np.ndarray):
        assert np.array_equal(expected, got)
    else:
        assert expected == got
        assert type(got) is type(expected)


@pytest.mark.parametrize(
    "call",
    [
        lambda: REF["sequence_support_log10"](0, 3),
        lambda: REF["sequence_support_log10"](5, -1),
        lambda: REF["giant_mlp_parameter_log10"](5, 3, 0),
        lambda: REF["attention_parameter_count"](0, 1),
        lambda: REF["attention_parameter_count"](-4, 2),
        lambda: REF["transformer_parameter_count"](-1, 8, 2, 16, 10),
        lambda: REF["transformer_parameter_count"](10, 0, 2, 16, 10),
        lambda: REF["transformer_parameter_count"](10, 8, -2, 16, 10),
        lambda: REF["transformer_parameter_count"](10, 8, 2, -16, 10),
        lambda: REF["transformer_parameter_count"](10, 8, 2, 16, -10),
        lambda: REF["transformer_parameter_count"](10, 8, 2, 16, 10, biases=1),
        lambda: REF["logits_memory_bytes"](-1, 3, 4),
        lambda: REF["logits_memory_bytes"](1, 3, 4, 0),
        lambda: REF["moe_parameter_count"](4, 0, 2),
    ],
)
def test_negative_and_impossible_sizes_are_refused(call):
    with pytest.raises(ValueError):
        call()


# -- counts: exact, for any size -----------------------------------------------------------------
def _gpt_like_shapes(
    vocab: int,
    d: int,
    n_layer: int,
    d_ff: int,
    ctx: int,
    positions: str,
    biases: bool,
    layernorm: bool,
    tied: bool,
) -> list[tuple[int, ...]]:
    """Every weight tensor such a model stores, by shape: an oracle that counts tensors, not
    a formula."""
    shapes: list[tuple[int, ...]] = [(vocab, d)]
    if positions == "learned":
        shapes.append((ctx, d))
    for _ in range(n_layer):
        shapes += [(d, d)] * 4 + [(d, d_ff), (d_ff, d)]  # W_Q, W_K, W_V, W_O; the FFN
        if biases:
            shapes += [(d,)] * 4 + [(d_ff,), (d,)]
        if layernorm:
            shapes += [(d,)] * 4  # two LayerNorms, gain and bias
    if layernorm:
        shapes += [(d,)] * 2
    if not tied:
        shapes.append((vocab, d))
    return shapes


@st.composite
def configs(draw: Any) -> dict[str, Any]:
    return {
        "vocab": integer_of(draw, 1, 300_000),
        "d_model": integer_of(draw, 1, 20_000),
        "n_layer": integer_of(draw, 0, 128),
        "d_ff": integer_of(draw, 1, 80_000),
        "context_length": integer_of(draw, 0, 200_000),
        "positions": draw(st.sampled_from(["none", "sinusoidal", "rope", "learned"])),
        "biases": draw(st.booleans()),
        "layernorm": draw(st.booleans()),
        "tied": draw(st.booleans()),
    }


@PROPERTY
@given(cfg=configs())
def test_parameter_count_is_the_exact_count_of_the_tensors(cfg):
    table = REF["transformer_parameter_count"](**cfg)
    plain = {k: int(v) if not isinstance(v, bool | str) else v for k, v in cfg.items()}
    shapes = _gpt_like_shapes(
        plain["vocab"],
        plain["d_model"],
        plain["n_layer"],
        plain["d_ff"],
        plain["context_length"],
        plain["positions"],
        plain["biases"],
        plain["layernorm"],
        plain["tied"],
    )
    assert table["total"] == sum(math.prod(s) for s in shapes)
    assert all(type(v) is int for v in table.values())


@PROPERTY
@given(d_model=st.integers(1, 5000).filter(lambda d: d % 12), layers=st.integers(0, 12))
def test_parameter_count_needs_no_n_head_and_any_divisor_gives_the_same(d_model, layers):
    """H does not change the count: left out, no n_head has to divide d_model."""
    base = REF["transformer_parameter_count"](1000, d_model, layers, 4 * d_model, 64)
    for h in (1, d_model):
        assert (
            REF["transformer_parameter_count"](1000, d_model, layers, 4 * d_model, 64, n_head=h)
            == base
        )
    with pytest.raises(ValueError):  # given, it must divide d_model
        REF["transformer_parameter_count"](1000, d_model, layers, 4 * d_model, 64, n_head=12)


@PROPERTY
@given(data=st.data())
def test_attention_count_is_the_chapter_formula_in_exact_arithmetic(data):
    d = data.draw(st.integers(1, 100_000))
    h = data.draw(st.sampled_from([n for n in range(1, min(d, 400) + 1) if d % n == 0] or [1]))
    got = REF["attention_parameter_count"](np.int32(d) if d < 2**31 else d, np.int64(h))
    assert got == Fraction(h) * 4 * Fraction(d, h) * d == 4 * d * d  # H · 4 · (d/H) · d
    assert type(got) is int


@PROPERTY
@given(data=st.data())
def test_logits_bytes_are_the_exact_product(data):
    sizes = [integer_of(data.draw, 0, 2**40) for _ in range(3)]
    nbytes = integer_of(data.draw, 1, 16)
    got = REF["logits_memory_bytes"](*sizes, nbytes)
    assert got == math.prod(int(s) for s in sizes) * int(nbytes)
    assert type(got) is int


def test_logits_bytes_never_wrap_around_in_int32():
    """The issue's example: three int32 that a NumPy product wraps to a negative count."""
    args = (np.int32(8), np.int32(4096), np.int32(128256))
    with np.errstate(over="ignore"):
        assert int(np.int32(8) * np.int32(4096) * np.int32(128256) * np.int32(4)) < 0  # it wraps
    assert REF["logits_memory_bytes"](*args) == 8 * 4096 * 128256 * 4 == 16_810_770_432


@PROPERTY
@given(data=st.data())
def test_moe_count_is_exact_and_takes_numpy_integers(data):
    d, f, e = (integer_of(data.draw, 1, 2**20) for _ in range(3))
    got = REF["moe_parameter_count"](d, f, e)
    assert got == int(d) * int(e) + int(e) * 2 * int(d) * int(f)
    assert type(got) is int


@PROPERTY
@given(vocab=st.integers(1, 10**6), length=st.integers(0, 300), hidden=st.integers(1, 10**5))
def test_log10_counts_match_the_exact_integers(vocab, length, hidden):
    """log10 of the exact Python integers V^T and V^T · hidden (math.log10 takes big ints)."""
    exact = math.log10(vocab**length)
    assert math.isclose(
        REF["sequence_support_log10"](vocab, length), exact, rel_tol=1e-12, abs_tol=1e-12
    )
    giant = math.log10(vocab**length * hidden)
    assert math.isclose(
        REF["giant_mlp_parameter_log10"](vocab, length, hidden), giant, rel_tol=1e-12, abs_tol=1e-12
    )


# -- the chain rule against exact fractions ------------------------------------------------------
@st.composite
def rational_joints(draw: Any) -> tuple[np.ndarray, list[Fraction], list[int]]:
    vocab, length = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    counts = draw(st.lists(st.integers(1, 50), min_size=vocab**length, max_size=vocab**length))
    total = sum(counts)
    exact = [Fraction(c, total) for c in counts]
    joint = np.array([float(p) for p in exact]).reshape((vocab,) * length)
    tokens = draw(st.lists(st.integers(0, vocab - 1), min_size=length, max_size=length))
    return joint, exact, tokens


@PROPERTY
@given(case=rational_joints())
def test_chain_rule_nll_is_minus_log_of_the_exact_probability(case):
    joint, exact, tokens = case
    vocab, length = joint.shape[0], joint.ndim
    index = 0
    for t in tokens:
        index = index * vocab + t
    # the product of the exact conditionals, each a ratio of exact marginals, telescopes to P(x)
    probability = Fraction(1)
    for t in range(1, length + 1):
        block = vocab ** (length - t)
        start = index // block * block
        prefix_t = sum(exact[start : start + block])
        block_prev = block * vocab
        start_prev = index // block_prev * block_prev
        prefix_prev = sum(exact[start_prev : start_prev + block_prev])
        probability *= prefix_t / prefix_prev
    assert probability == exact[index]
    got = REF["chain_rule_nll"](joint, tokens)
    assert math.isclose(got, -math.log(float(probability)), rel_tol=1e-12, abs_tol=1e-12)


@pytest.mark.parametrize(
    ("joint", "tokens"),
    [
        (np.full((2, 2), 0.25), [0, 2]),  # a token outside 0..V-1
        (np.full((2, 2), 0.25), [0, -1]),  # negative: NumPy would wrap it silently
        (np.full((2, 2), 0.3), [0, 1]),  # sums to 1.2
        (np.array([[0.5, 0.5], [np.nan, 0.0]]), [0, 1]),
        (np.array([[1.5, -0.5], [0.0, 0.0]]), [0, 1]),
        (np.zeros((2, 3)), [0, 1]),  # not (V,) * T
        (np.array(1.0), []),  # T = 0
    ],
)
def test_chain_rule_refuses_what_is_not_a_distribution_and_a_sequence(joint, tokens):
    with pytest.raises(ValueError):
        REF["chain_rule_nll"](joint, tokens)


def test_a_sequence_of_probability_zero_has_infinite_nll():
    assert REF["chain_rule_nll"](np.array([[0.5, 0.5], [0.0, 0.0]]), [1, 0]) == math.inf


# -- no NaN for finite inputs ----------------------------------------------------------------------
DTYPES = [np.float16, np.float32, np.float64]


@PROPERTY
@given(
    dtype=st.sampled_from(DTYPES),
    logits=st.lists(st.floats(-1e4, 1e4), min_size=1, max_size=40),
    log_t=st.floats(-30.0, 30.0),
)
def test_softmax_temperature_is_a_distribution_for_every_finite_input(dtype, logits, log_t):
    z = np.asarray(logits).astype(dtype)
    assume(np.all(np.isfinite(z)))
    t = 10.0**log_t
    p = REF["softmax_temperature"](z, t)
    assert p.dtype == dtype
    assert np.all(np.isfinite(p)) and np.all(p >= 0)
    eps = float(np.finfo(dtype).eps)
    assert abs(float(p.astype(np.float64).sum()) - 1.0) <= 8 * eps * len(logits)
    assert p[np.argmax(z)] == p.max() > 0


def test_softmax_temperature_in_float16_at_t_1e_5():
    """The issue's example: dividing first would overflow float16 to inf - inf = NaN."""
    z = np.array([2.0, 1.0, -1.0], dtype=np.float16)
    with np.errstate(all="ignore"):
        naive = z / np.float16(1e-5)
        assert np.isnan(naive - naive.max()).any()
    p = REF["softmax_temperature"](z, 1e-5)
    assert p.dtype == np.float16
    assert p.tolist() == [1.0, 0.0, 0.0]


@PROPERTY
@given(
    logits=st.lists(st.floats(-50.0, 50.0), min_size=1, max_size=30),
    t=st.floats(0.05, 50.0),
    dtype=st.sampled_from(DTYPES),
)
def test_softmax_temperature_matches_a_careful_float64_oracle(logits, t, dtype):
    z = np.asarray(logits).astype(dtype)
    zs = [float(v) for v in z]
    top = max(zs)
    weights = [math.exp((v - top) / t) for v in zs]
    total = math.fsum(weights)
    oracle = np.array([w / total for w in weights])
    got = REF["softmax_temperature"](z, t).astype(np.float64)
    # the rounding of exp's argument to the dtype dominates: |x| · eps relative
    eps = float(np.finfo(dtype).eps)
    bound = 4 * eps * (1 + max(abs(v - top) / t for v in zs))
    assert np.max(np.abs(got - oracle)) <= bound * max(1.0, float(oracle.max()))


@pytest.mark.parametrize(
    ("logits", "t"),
    [
        (np.array([1.0, np.nan]), 1.0),
        (np.array([1.0, np.inf]), 1.0),
        (np.array([-np.inf, 0.0]), 1.0),
        (np.zeros(0), 1.0),
        (np.zeros((2, 0)), 1.0),
        (np.array(["a", "b"]), 1.0),
        (np.array([1.0, 2.0]), True),
        (np.array([1.0, 2.0]), "1"),
        (np.array([1.0, 2.0]), np.float16(0.0)),
        (np.array([1.0, 2.0]), -np.inf),
    ],
)
def test_softmax_temperature_refuses_with_its_own_value_error(logits, t):
    with pytest.raises(ValueError):
        REF["softmax_temperature"](logits, t)


@PROPERTY
@given(
    scores=st.lists(st.floats(-1e300, 1e300), min_size=1, max_size=36).map(
        lambda xs: np.array(xs[: math.isqrt(len(xs)) ** 2])
    )
)
def test_causal_mask_has_no_nan_for_any_finite_scores(scores):
    t = math.isqrt(scores.size)
    w = REF["causal_masked_attention"](scores.reshape(t, t))
    assert np.all(np.isfinite(w))
    assert np.all(w[np.triu_indices(t, k=1)] == 0.0)


def test_the_mlp_has_no_nan_where_h_cubed_overflows():
    x = np.array([[1e110, -1e110, 3.0]])
    out = REF["position_wise_mlp"](x, np.eye(3), np.eye(3))
    assert np.all(np.isfinite(out))
    assert out[0, 0] == 1e110 and out[0, 1] == 0.0  # GELU(h) -> h and -> 0


# -- empty and malformed inputs: our own ValueError, never NumPy's ----------------------------
E = np.zeros((0, 4))
X = np.ones((3, 4))


@pytest.mark.parametrize(
    "call",
    [
        lambda: REF["averaging_model"](E),
        lambda: REF["averaging_model"](np.ones(4)),
        lambda: REF["causal_masked_attention"](np.zeros((0, 0))),
        lambda: REF["causal_masked_attention"](np.ones((3, 4))),
        lambda: REF["causal_masked_attention"](np.ones(3)),
        lambda: REF["position_wise_mlp"](E, np.ones((4, 2)), np.ones((2, 4))),
        lambda: REF["position_wise_mlp"](X, np.ones((5, 2)), np.ones((2, 4))),
        lambda: REF["multi_head_attention"](E, *[np.ones((4, 4))] * 4, 2),
        lambda: REF["multi_head_attention"](X, *[np.ones((4, 6))] * 3, np.ones((6, 4)), 4),
        lambda: REF["multi_head_attention"](
            X, np.ones((4, 4)), np.ones((4, 2)), np.ones((4, 4)), np.ones((4, 4)), 1
        ),
        lambda: REF["top_k_renormalize"](np.zeros(0), 1),
        lambda: REF["top_k_renormalize"](np.array([0.5, np.nan]), 1),
        lambda: REF["top_k_renormalize"](np.array([0.7, -0.1]), 1),
        lambda: REF["top_k_renormalize"](np.zeros(3), 2),
        lambda: REF["top_k_renormalize"](np.ones((2, 2)), 1),
        lambda: REF["flash_attention"](E, E, E, 2),
        lambda: REF["flash_attention"](X, X, np.ones((3, 0)), 2),
        lambda: REF["linear_attention"](E, E, E),
        lambda: REF["moe_layer"](E, np.ones((4, 2)), np.ones((2, 4, 3)), np.ones((2, 3, 4)), 1),
        lambda: REF["moe_layer"](X, np.ones((4, 2)), np.ones((2, 4, 3)), np.ones((2, 3, 5)), 1),
    ],
)
def test_empty_and_malformed_arrays_raise_our_value_error(call):
    with pytest.raises(ValueError) as raised:
        call()
    # our own message, not NumPy's reduction or broadcasting error
    assert "zero-size array" not in str(raised.value)
    assert "could not be broadcast" not in str(raised.value)


# -- the conventions the claims rely on ---------------------------------------------------------
@PROPERTY
@given(
    n_head=st.integers(1, 4),
    hs=st.integers(1, 4),
    t=st.integers(1, 6),
    seed=st.integers(0, 2**32 - 1),
)
def test_mha_layout_and_scale_are_the_documented_ones(n_head, hs, t, seed):
    """Head h owns columns h·hs:(h+1)·hs and scores are scaled by 1/√hs: written out as a
    loop over heads with the masked softmax spelled out."""
    rng = np.random.default_rng(seed)
    d, width = 5, n_head * hs
    x = rng.standard_normal((t, d))
    w_q, w_k, w_v = (rng.standard_normal((d, width)) for _ in range(3))
    w_o = rng.standard_normal((width, 3))
    heads = []
    for h in range(n_head):
        c = slice(h * hs, (h + 1) * hs)
        s = (x @ w_q[:, c]) @ (x @ w_k[:, c]).T / math.sqrt(hs)
        s[np.triu_indices(t, k=1)] = -np.inf
        a = np.exp(s - s.max(axis=1, keepdims=True))
        heads.append((a / a.sum(axis=1, keepdims=True)) @ (x @ w_v[:, c]))
    want = np.concatenate(heads, axis=1) @ w_o
    got = REF["multi_head_attention"](x, w_q, w_k, w_v, w_o, n_head)
    assert np.max(np.abs(got - want)) <= 1e-12 * max(1.0, float(np.max(np.abs(want))))


def test_moe_ties_keep_the_lower_expert_and_gate_over_the_kept_scores():
    x = np.array([[1.0, 0.0]])  # scores: expert 0 and 1 tie at 2, expert 2 scores 1
    w_router = np.array([[2.0, 2.0, 1.0], [0.0, 0.0, 0.0]])
    w_in = np.stack([np.eye(2) * (e + 1) for e in range(3)])  # each expert tells itself apart
    w_out = np.stack([np.eye(2)] * 3)
    y = REF["moe_layer"](x, w_router, w_in, w_out, 1)
    assert np.array_equal(y, REF["position_wise_mlp"](x, w_in[0], w_out[0]))  # the lower one
    y2 = REF["moe_layer"](x, w_router, w_in, w_out, 2)  # both tied experts, gates 1/2 each
    want = 0.5 * REF["position_wise_mlp"](x, w_in[0], w_out[0]) + 0.5 * REF["position_wise_mlp"](
        x, w_in[1], w_out[1]
    )
    assert np.max(np.abs(y2 - want)) <= 1e-15


def test_moe_never_reads_an_unchosen_expert():
    x = np.array([[1.0, 0.0], [0.5, 0.0]])
    w_router = np.array([[3.0, -3.0], [0.0, 0.0]])  # expert 1 is never chosen
    w_in = np.stack([np.eye(2), np.full((2, 2), np.nan)])
    w_out = np.stack([np.eye(2), np.full((2, 2), np.nan)])
    assert np.all(np.isfinite(REF["moe_layer"](x, w_router, w_in, w_out, 1)))


@pytest.mark.parametrize("name", ["flash_attention", "linear_attention"])
def test_stage_2_attention_returns_its_output_only(name):
    x = np.random.default_rng(0).standard_normal((6, 3))
    args = (x, x, x, 2) if name == "flash_attention" else (x, x, x)
    out = REF[name](*args)
    assert isinstance(out, np.ndarray) and out.shape == (6, 3) and out.dtype == np.float64


def test_flash_attention_holds_no_t_by_t_array():
    """Measured as the claims measure it: the peak of the call, under tracemalloc."""
    rng = np.random.default_rng(0)
    t = 1024
    q, k, v = (rng.standard_normal((t, 8)) for _ in range(3))
    _, peak = measure_locally(REF["flash_attention"], q, k, v, 32)
    assert peak is not None and peak < t * t  # below one (T, T) array of single bytes
    _, naive = measure_locally(REF["causal_masked_attention"], q @ k.T)
    assert naive is not None and naive >= 8 * t * t


@pytest.mark.parametrize(
    ("logits", "top"),
    [
        (np.array([2**53, 2**53 + 1], dtype=np.int64), 1),  # equal as float64
        (np.array([2**62, 2**62 + 1, -(2**62)], dtype=np.int64), 1),
        ([2**53, 2**53 + 1], 1),  # a list of Python ints: int64, compared exactly
        (np.array([1.0, 1.0 + 1e-12]), 1),  # equal as float32
        (np.array([3, 7, 7], dtype=np.uint8), 1),  # ties: the lowest index
        (np.array([0.5, 3.0, 3.0], dtype=np.float16), 1),
    ],
)
def test_greedy_compares_the_logits_in_their_own_dtype(logits, top):
    got = REF["greedy_token"](logits)
    assert type(got) is int and got == top


@pytest.mark.parametrize(
    "empty", [np.array([]), [], np.zeros(0, dtype=np.int32), np.zeros(0, bool)]
)
def test_an_empty_id_vector_is_t_0_whatever_its_dtype(empty):
    table = np.arange(12.0).reshape(4, 3)
    out = REF["embedding_lookup"](empty, table)
    assert out.shape == (0, 3) and out.dtype == np.float64


@pytest.mark.parametrize(
    "tokens", [np.int64(3), np.array(3), np.array([True, False, True]), np.array([1.0, 2.0])]
)
def test_ids_that_are_not_a_vector_of_integers_are_refused(tokens):
    with pytest.raises(ValueError):
        REF["embedding_lookup"](tokens, np.ones((5, 3)))


# -- issue 22: the decided questions, against exact arithmetic -----------------------------------
def test_chain_rule_reads_a_joint_near_one_as_given():
    """−ln of the entry itself (the empty prefix has probability 1), exactly, for a table
    summing to 1 ± 5e-7; never the entry divided by the table's sum."""
    rng = np.random.default_rng(3)
    joint = rng.dirichlet(np.ones(27)).reshape(3, 3, 3)
    for scale in (1 + 5e-7, 1 - 5e-7):
        table = joint * scale
        nll = REF["chain_rule_nll"](table, [2, 0, 1])
        assert nll == pytest.approx(-math.log(float(table[2, 0, 1])), rel=1e-13)
        normalized = -math.log(float(table[2, 0, 1]) / float(table.sum()))
        assert abs(nll - normalized) > 1e-7  # the other reading is far outside the claim's 1e-9


def test_top_p_running_sum_is_sequential_float64():
    """The cases that separate np.cumsum's order from an exactly rounded prefix (math.fsum)."""
    from checks.generators import F32_PROBS

    ranked = [0.4, 0.3, 0.2, 0.1]
    assert np.cumsum(ranked)[2] < 0.9 == math.fsum(ranked[:3])
    kept = REF["top_p_renormalize"](np.array([0.2, 0.4, 0.1, 0.3]), 0.9)
    assert np.count_nonzero(kept) == 4
    p = float(np.cumsum([0.5, 0.3, 0.15])[2])
    assert math.fsum([0.5, 0.3, 0.15]) < p
    assert np.count_nonzero(REF["top_p_renormalize"](np.array([0.05, 0.5, 0.15, 0.3]), p)) == 3
    # float32 probabilities: summed in float32 the top five come 4.1e-8 above their float64 sum
    f32 = np.sort(F32_PROBS)[::-1]
    cut = float(np.cumsum(f32.astype(np.float64))[4]) + 1e-9
    assert float(np.cumsum(f32)[4]) > cut  # a float32 running sum keeps one token fewer
    assert np.count_nonzero(REF["top_p_renormalize"](F32_PROBS, cut)) == 6


def test_top_p_of_all_zero_probabilities_is_refused_as_top_k_refuses_it():
    for fn, arg in ((REF["top_p_renormalize"], 0.5), (REF["top_k_renormalize"], 2)):
        with pytest.raises(ValueError):
            fn(np.zeros(4), arg)


def test_numpy_bools_are_flags_and_ints_are_not():
    count = REF["transformer_parameter_count"]
    as_python = count(100, 16, 2, 64, 32, biases=True, layernorm=True, tied=False)
    assert count(100, 16, 2, 64, 32, biases=np.True_, layernorm=np.bool_(1), tied=np.False_) == (
        as_python
    )
    for flag in (0, 1, np.int64(1), "yes", None):
        with pytest.raises(ValueError):
            count(100, 16, 2, 64, 32, tied=flag)


@pytest.mark.parametrize(
    "name",
    ["top_k_renormalize", "top_p_renormalize", "flash_attention", "linear_attention", "moe_layer"],
)
def test_float32_inputs_are_computed_in_float64(name):
    """The reference's answer for float32 inputs is its answer for the same values in
    float64, bit for bit: the cast happens first, and nothing after it is float32."""
    gen = {g.subject: g for g in REGISTRY.generators.values()}[name]
    (case,) = [
        c for c in gen.fn(np.random.default_rng(0), 80) if c.label["en"].startswith("float32")
    ][:1]
    wide = tuple(a.astype(np.float64) if isinstance(a, np.ndarray) else a for a in case.args)
    assert np.array_equal(REF[name](*case.args), REF[name](*wide))
    assert REF[name](*case.args).dtype == np.float64


def test_every_case_label_is_in_both_languages():
    for gen in REGISTRY.generators.values():
        for case in gen.fn(np.random.default_rng(0), 120):
            assert set(case.label) == {"zh", "en"}, (gen.name, case.label)
            assert all(case.label.values()), (gen.name, case.label)


def test_the_chinese_docstrings_say_what_the_english_ones_say():
    """Every reference function has a Chinese docstring, and each figure of its English one
    (stage and chapter numbers aside, which Chinese writes in its own words) appears in it."""
    import inspect
    import re

    from checks.docstrings_zh import DOCSTRINGS_ZH

    number = re.compile(r"(?<![\w.])(?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?(?:e-?\d+)?)(?![\w])")

    def figures(text: str) -> set[str]:
        text = re.sub(r"\b(?:[Ss]tage|[Cc]hapter) \d+('s)?", "", text.replace("−", "-"))
        return set(number.findall(text))

    assert set(DOCSTRINGS_ZH) == set(REGISTRY.subjects)
    for name, spec in REGISTRY.subjects.items():
        english = inspect.getdoc(spec.fn) or ""
        chinese = DOCSTRINGS_ZH[name]
        assert re.search(r"[\u4e00-\u9fff]", chinese), name
        assert not figures(english) - figures(chinese), (name, figures(english) - figures(chinese))


@pytest.mark.parametrize("reference", [False, True])
def test_the_chinese_scaffold_carries_the_chinese_docstrings(reference):
    import ast

    from checks.docstrings_zh import DOCSTRINGS_ZH
    from runner import api
    from runner.i18n import catalog
    from runner.learner.scaffold import scaffold
    from tests.conftest import MODULE

    (pack,) = api.load_claims([MODULE])
    source = scaffold(pack, catalog("zh"), reference=reference)
    tree = ast.parse(source)
    docs = {
        node.name: ast.get_docstring(node)
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name in DOCSTRINGS_ZH
    }
    assert len(docs) == len(DOCSTRINGS_ZH)
    for name, doc in docs.items():
        assert doc == DOCSTRINGS_ZH[name].strip(), name
    english = scaffold(pack, catalog("en"), reference=reference)
    assert "阶段一：log10" not in english and "Stage 1: log10" in english
