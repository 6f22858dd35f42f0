"""Properties of the reference NumPy functions, on inputs Hypothesis chooses.

The claims check the chapter's numbers at a few chosen points; these tests check that the
reference functions those claims are judged against obey the chapter's identities
everywhere on a range of inputs, so a passing claim is not a coincidence of its inputs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.conftest import REGISTRY

REF = REGISTRY.reference()
softmax_temperature = REF["softmax_temperature"]
top_k_renormalize = REF["top_k_renormalize"]
causal_masked_attention = REF["causal_masked_attention"]
sequence_support_log10 = REF["sequence_support_log10"]
transformer_parameter_count = REF["transformer_parameter_count"]
attention_parameter_count = REF["attention_parameter_count"]
chain_rule_nll = REF["chain_rule_nll"]

FAST = settings(max_examples=80, deadline=None)
FEWER = settings(max_examples=50, deadline=None)

finite_logit = st.floats(min_value=-100.0, max_value=100.0, allow_nan=False, allow_infinity=False)
logit_vectors = st.lists(finite_logit, min_size=1, max_size=50).map(np.array)
temperatures = st.floats(min_value=1e-3, max_value=1e3, allow_nan=False, allow_infinity=False)


# -- softmax_temperature ------------------------------------------------------------------
@FAST
@given(logits=logit_vectors, t=temperatures)
def test_softmax_temperature_is_a_distribution(logits, t):
    p = softmax_temperature(logits, t)
    assert p.shape == logits.shape
    assert p.dtype == np.float64
    assert np.all(np.isfinite(p))
    assert np.all(p >= 0.0)
    assert abs(float(p.sum()) - 1.0) <= 1e-12
    # the largest logit always keeps the largest probability, and it is never 0
    assert p[np.argmax(logits)] == p.max() > 0.0


@FAST
@given(logits=logit_vectors, t=temperatures)
def test_softmax_temperature_never_reverses_a_pair(logits, t):
    """Wherever two probabilities differ, they are in the order of their logits.

    Rounding may merge two probabilities into a tie (both underflow to 0.0, or differ below
    an ulp); a tie is not a reversal, so only pairs with distinct probabilities are compared.
    """
    p = softmax_temperature(logits, t)
    dp = np.sign(p[:, None] - p[None, :])  # (V, V)
    dz = np.sign(logits[:, None] - logits[None, :])  # (V, V)
    distinct = dp != 0
    assert np.array_equal(dp[distinct], dz[distinct])


@FAST
@given(
    logits=st.lists(st.integers(-40, 40), min_size=1, max_size=50, unique=True).map(
        lambda xs: np.array(xs, dtype=np.float64) / 2
    ),
    t=st.floats(min_value=0.5, max_value=50.0),
)
def test_softmax_temperature_keeps_the_argsort(logits, t):
    """Logits at least 0.5 apart: the probabilities are distinct and argsort is unchanged."""
    p = softmax_temperature(logits, t)
    assume(len(np.unique(p)) == len(p))  # no tie after rounding (never hit in this range)
    assert np.array_equal(np.argsort(-p, kind="stable"), np.argsort(-logits, kind="stable"))


@pytest.mark.parametrize(
    "t", [0.0, -0.0, -1e-300, -1.0, -1e300, math.nan, math.inf, -math.inf, np.float64(math.nan)]
)
def test_softmax_temperature_refuses_nonpositive_and_nonfinite_t(t):
    with pytest.raises(ValueError, match="temperature"):
        softmax_temperature(np.array([2.0, 1.0, -1.0]), t)


@FEWER
@given(t=st.floats(max_value=0.0) | st.sampled_from([math.nan, math.inf]))
def test_softmax_temperature_refuses_any_t_at_or_below_zero(t):
    with pytest.raises(ValueError):
        softmax_temperature(np.array([2.0, 1.0, -1.0]), t)


# -- top_k_renormalize --------------------------------------------------------------------
@st.composite
def probs_and_k(draw):
    weights = draw(st.lists(st.floats(min_value=1e-6, max_value=1.0), min_size=1, max_size=40))
    p = np.array(weights) / sum(weights)
    k = draw(st.integers(1, len(p)))
    return p, k


@FAST
@given(case=probs_and_k())
def test_top_k_keeps_exactly_the_k_largest(case):
    p, k = case
    out = top_k_renormalize(p, k)
    kept = np.flatnonzero(out)
    dropped = np.flatnonzero(out == 0.0)
    assert len(kept) == k
    assert len(kept) + len(dropped) == len(p)
    assert np.all(out[dropped] == 0.0)  # exact zeros, not small numbers
    if len(dropped):
        # with ties at the boundary either index may go; never a smaller one kept over a larger
        assert p[kept].min() >= p[dropped].max()
    assert abs(float(out.sum()) - 1.0) <= 1e-12
    # the survivors keep their proportions
    np.testing.assert_allclose(out[kept], p[kept] / p[kept].sum(), rtol=1e-12, atol=0)


@FEWER
@given(n=st.integers(1, 20), k=st.integers(1, 20))
def test_top_k_ties_keep_the_lower_index(n, k):
    assume(k <= n)
    out = top_k_renormalize(np.full(n, 1.0 / n), k)
    assert np.flatnonzero(out).tolist() == list(range(k))


@FEWER
@given(case=probs_and_k(), bad=st.sampled_from(["zero", "negative", "above"]))
def test_top_k_refuses_k_out_of_range(case, bad):
    p, _ = case
    k = {"zero": 0, "negative": -1, "above": len(p) + 1}[bad]
    with pytest.raises(ValueError, match=r"^k must be"):
        top_k_renormalize(p, k)


# -- causal_masked_attention --------------------------------------------------------------
@st.composite
def score_matrices(draw, bound=50.0):
    t = draw(st.integers(1, 12))
    values = draw(
        st.lists(st.floats(min_value=-bound, max_value=bound), min_size=t * t, max_size=t * t)
    )
    return np.array(values, dtype=np.float64).reshape(t, t)


def _prefix_softmax(row: np.ndarray) -> np.ndarray:
    e = np.exp(row - row.max())
    return e / e.sum()


@FAST
@given(scores=score_matrices())
def test_causal_mask_is_a_softmax_over_the_prefix(scores):
    w = causal_masked_attention(scores)
    t_len = scores.shape[0]
    assert w.shape == (t_len, t_len)
    for t in range(t_len):
        # the same exps; only the order of the row sum may differ, so a few ulp, relative
        np.testing.assert_allclose(
            w[t, : t + 1], _prefix_softmax(scores[t, : t + 1]), rtol=1e-14, atol=0
        )
    assert np.all(w[np.triu_indices(t_len, k=1)] == 0.0)  # exactly 0, not tiny
    assert w[0].tolist() == [1.0] + [0.0] * (t_len - 1)
    np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=0, atol=1e-15)


@FEWER
@given(scores=score_matrices(bound=1e300))
def test_causal_mask_survives_huge_finite_scores(scores):
    w = causal_masked_attention(scores)
    assert not np.isnan(w).any()
    assert np.all(w[np.triu_indices(scores.shape[0], k=1)] == 0.0)
    assert w[0, 0] == 1.0


@st.composite
def score_stacks(draw):
    t = draw(st.integers(1, 8))
    h = draw(st.integers(1, 4))
    cell = st.floats(min_value=-50.0, max_value=50.0)
    values = draw(st.lists(cell, min_size=h * t * t, max_size=h * t * t))
    return np.array(values, dtype=np.float64).reshape(h, t, t)


@FEWER
@given(stack=score_stacks())
def test_causal_mask_batches_over_leading_axes(stack):
    together = causal_masked_attention(stack)  # (H, T, T)
    for h in range(stack.shape[0]):
        assert np.array_equal(together[h], causal_masked_attention(stack[h]))


# -- sequence_support_log10 ---------------------------------------------------------------
@FAST
@given(vocab=st.integers(1, 10**6), length=st.integers(0, 10**5))
def test_support_is_t_log10_v(vocab, length):
    assert sequence_support_log10(vocab, length) == length * math.log10(vocab)


@FAST
@given(vocab=st.integers(1, 30), length=st.integers(0, 8))
def test_support_is_the_number_of_sequences(vocab, length):
    count = vocab**length
    got = 10 ** sequence_support_log10(vocab, length)
    assert math.isclose(got, count, rel_tol=1e-12)
    assert round(got) == count  # count < 30^8 < 2^53: exact as an integer


@pytest.mark.parametrize(("vocab", "length"), [(0, 3), (-1, 3), (5, -1)])
def test_support_refuses_impossible_sizes(vocab, length):
    with pytest.raises(ValueError):
        sequence_support_log10(vocab, length)


# -- transformer_parameter_count ----------------------------------------------------------
@st.composite
def model_configs(draw):
    n_head = draw(st.integers(1, 16))
    return {
        "vocab": draw(st.integers(1, 200_000)),
        "d_model": n_head * draw(st.integers(1, 128)),
        "n_layer": draw(st.integers(0, 64)),
        "d_ff": draw(st.integers(1, 20_000)),
        "n_head": n_head,
        "biases": draw(st.booleans()),
        "layernorm": draw(st.booleans()),
        "tied": draw(st.booleans()),
    }


context_lengths = st.integers(0, 10**6)


@FAST
@given(
    cfg=model_configs(),
    positions=st.sampled_from(["none", "sinusoidal", "rope"]),
    short=context_lengths,
    long=context_lengths,
)
def test_parameter_count_has_no_t_without_a_learned_table(cfg, positions, short, long):
    a = transformer_parameter_count(**cfg, context_length=short, positions=positions)
    b = transformer_parameter_count(**cfg, context_length=long, positions=positions)
    assert a == b
    assert a["position_table"] == 0


@FAST
@given(cfg=model_configs(), short=context_lengths, long=context_lengths)
def test_a_learned_table_adds_d_model_per_position(cfg, short, long):
    a = transformer_parameter_count(**cfg, context_length=short, positions="learned")
    b = transformer_parameter_count(**cfg, context_length=long, positions="learned")
    assert b["total"] - a["total"] == cfg["d_model"] * (long - short)
    assert a["position_table"] == cfg["d_model"] * short
    # nothing but the position table moves
    assert {k: v for k, v in a.items() if k not in ("position_table", "total")} == {
        k: v for k, v in b.items() if k not in ("position_table", "total")
    }


@FEWER
@given(cfg=model_configs(), t=context_lengths)
def test_parameter_table_adds_up(cfg, t):
    row = transformer_parameter_count(**cfg, context_length=t, positions="learned")
    assert row["per_layer"] == (
        row["attention_per_layer"] + row["ffn_per_layer"] + row["norms_per_layer"]
    )
    assert row["total"] == (
        row["embedding"]
        + row["position_table"]
        + cfg["n_layer"] * row["per_layer"]
        + row["final_norm"]
        + row["head"]
    )
    assert all(type(v) is int for v in row.values())


# -- attention_parameter_count ------------------------------------------------------------
@FAST
@given(d_model=st.integers(1, 4096))
def test_attention_parameters_are_4d2_for_every_head_count(d_model):
    divisors = [h for h in range(1, d_model + 1) if d_model % h == 0]
    assert {attention_parameter_count(d_model, h) for h in divisors} == {4 * d_model * d_model}


@FEWER
@given(d_model=st.integers(2, 4096), n_head=st.integers(-3, 4097))
def test_attention_refuses_a_head_count_that_does_not_divide_d(d_model, n_head):
    assume(n_head < 1 or d_model % n_head)
    with pytest.raises(ValueError):
        attention_parameter_count(d_model, n_head)


# -- chain_rule_nll -----------------------------------------------------------------------
@st.composite
def joints_and_tokens(draw):
    vocab = draw(st.integers(1, 4))
    length = draw(st.integers(1, 4))
    size = vocab**length
    weights = draw(st.lists(st.floats(min_value=1e-9, max_value=1.0), min_size=size, max_size=size))
    joint = np.array(weights, dtype=np.float64).reshape((vocab,) * length)
    joint /= joint.sum()
    tokens = draw(st.lists(st.integers(0, vocab - 1), min_size=length, max_size=length))
    return joint, tokens


@FAST
@given(case=joints_and_tokens())
def test_chain_rule_nll_is_the_joint_nll(case):
    joint, tokens = case
    got = chain_rule_nll(joint, tokens)
    want = -math.log(float(joint[tuple(tokens)]))
    assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12)


@FEWER
@given(case=joints_and_tokens(), extra=st.integers(1, 3))
def test_chain_rule_nll_refuses_a_sequence_of_the_wrong_length(case, extra):
    joint, tokens = case
    with pytest.raises(ValueError):
        chain_rule_nll(joint, [*tokens, *([0] * extra)])
