"""Seeded inputs across each chapter function's whole signature, for ``matches_reference``.

A generator registered with ``@generator(name, subject=...)`` takes a seeded
``np.random.Generator`` and a number of cases ``n`` and returns exactly ``n`` :class:`Case`
objects: first its fixed edges (the chapter's own inputs, every parameter's documented
range and its ends, NumPy integers where a Python int is usual, dtypes, ties, extreme
magnitudes, and the invalid arguments the contract answers with ValueError), then random
cases drawn over the whole documented range. Each case carries a label, so a failure says
which kind of input the implementation gets wrong ("float16 at T = 1e-5", "ties at k").

The contract each generator covers is the one written in the reference's docstrings (which
the scaffold hands to learners) and in the README's signature table.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from checks.pack import generator
from runner.pack import Case, case

Array = NDArray[np.float64]


def _fill(
    n: int, edges: list[Case], rng: np.random.Generator, draw: Callable[[np.random.Generator], Case]
) -> list[Case]:
    """The edges, then random cases up to ``n`` in all."""
    if n < len(edges):
        raise ValueError(f"this generator needs at least {len(edges)} cases, got {n}")
    return edges + [draw(rng) for _ in range(n - len(edges))]


def _log_int(rng: np.random.Generator, low: int, high: int) -> int:
    """An integer in [low, high], log-uniform (so every order of magnitude is visited)."""
    lo, hi = math.log(max(low, 1)), math.log(high + 1)
    return int(min(high, max(low, math.floor(math.exp(rng.uniform(lo, hi))))))


def _divisors(n: int) -> list[int]:
    return [h for h in range(1, n + 1) if n % h == 0]


# -- stage 1 ---------------------------------------------------------------------------------
@generator("sequence_support_log10", subject="sequence_support_log10")
def gen_sequence_support(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case("chapter V=50257 T=1000", 50257, 1000),
        case("chapter V=50257 T=32", 50257, 32),
        case("V=1", 1, 1000),
        case("T=0", 50257, 0),
        case("V=2 T=1", 2, 1),
        case("NumPy int32", np.int32(50257), np.int32(1000)),
        case("NumPy int64", np.int64(10**6), np.int64(10**5)),
        case("V past 2^31", 2**40, 3),
        case("invalid V=0", 0, 3),
        case("invalid V<0", -1, 3),
        case("invalid T<0", 5, -1),
        case("invalid V=0 at T=0 (0^0 is still V < 1)", 0, 0),
        case("invalid T<0 at V=1 (checked before any shortcut)", 1, -1),
        case("invalid: T = np.int64(-1) (a NumPy integer below 0)", np.int64(10), np.int64(-1)),
        case("invalid: V = np.int32(0) (a NumPy integer below 1)", np.int32(0), 5),
        case("arguments by name (vocab=, length=)", vocab=50257, length=1000),
    ]

    def draw(r: np.random.Generator) -> Case:
        return case("random", _log_int(r, 1, 10**6), _log_int(r, 0, 10**5))

    return _fill(n, edges, rng, draw)


def _joint(rng: np.random.Generator, vocab: int, length: int, alpha: float) -> Array:
    """A random joint distribution over all V^T sequences, shape (V,) * T, every entry > 0."""
    joint = rng.dirichlet(np.full(vocab**length, alpha)).reshape((vocab,) * length)
    joint = np.maximum(joint, 1e-300)  # a Dirichlet draw can underflow to 0 at small alpha
    return joint / joint.sum()  # type: ignore[no-any-return]


def _uniform_minus(vocab: int, length: int) -> Array:
    """A uniform joint with 0.2 moved from its first entry to its second: it sums to 1 and
    holds a negative 'probability' (−0.075 at V = 2, T = 3)."""
    joint = np.full((vocab,) * length, 1.0 / vocab**length)
    joint.flat[0] -= 0.2
    joint.flat[1] += 0.2
    return joint


def _with_zeros(joint: Array, where: tuple[Any, ...]) -> Array:
    """``joint`` with the entries at ``where`` set to an exact 0, renormalized: sequences
    (and prefixes) of probability exactly 0, whose NLL is +inf."""
    out = joint.copy()
    out[where] = 0.0
    return out / out.sum()  # type: ignore[no-any-return]


@generator("chain_rule_nll", subject="chain_rule_nll")
def gen_chain_rule(rng: np.random.Generator, n: int) -> list[Case]:
    j34 = _joint(rng, 3, 4, 1.0)
    j23 = _joint(rng, 2, 3, 0.3)
    edges = [
        case("V=3 T=4 (list)", j34, [0, 2, 1, 2]),
        case("tokens as NumPy int64 array", j34, np.array([2, 2, 0, 1])),
        case("tokens as a tuple", j23, (1, 0, 1)),
        case("V=1: the only sequence", _joint(rng, 1, 3, 1.0), [0, 0, 0]),
        case("T=1", _joint(rng, 5, 1, 1.0), [3]),
        case("skewed joint (alpha 0.05)", _joint(rng, 4, 3, 0.05), [3, 1, 0]),
        case(
            "exact zeros: a first token of probability 0 (inf)",
            _with_zeros(j34, (1,)),
            [1, 0, 2, 2],
        ),
        case(
            "exact zeros: a prefix of probability 0 (inf)",
            _with_zeros(j34, (0, 2)),
            np.array([0, 2, 1, 1]),
        ),
        case(
            "exact zeros: the last token impossible (inf)", _with_zeros(j23, (1, 0, 1)), [1, 0, 1]
        ),
        case("exact zeros elsewhere, a possible sequence", _with_zeros(j34, (2, 1)), [0, 1, 2, 0]),
        case("invalid: tokens too long", j23, [1, 0, 1, 0]),
        case("invalid: tokens too short", j34, [0, 1]),
        case("invalid: a negative token", j34, [0, -1, 2, 1]),
        case("invalid: a token = V", j23, np.array([1, 2, 0])),
        case("invalid: joint not (V,) * T", rng.dirichlet(np.ones(6)).reshape(2, 3), [1, 2]),
        case("invalid: a negative probability (summing to 1)", _uniform_minus(2, 3), [1, 1, 1]),
        case("invalid: a NaN probability", np.where(j23 == j23.max(), math.nan, j23), [0, 1, 0]),
        case("invalid: joint sums to 0.9", j23 * 0.9, [0, 1, 0]),
        case("invalid: joint sums to 1 + 5e-6", j34 * (1 + 5e-6), [0, 2, 1, 2]),
        case("invalid: joint sums to 1 - 5e-6", j34 * (1 - 5e-6), [0, 2, 1, 2]),
        case("invalid: joint sums to 1 + 1e-3", j23 * (1 + 1e-3), [0, 1, 0]),
        case("invalid: joint sums to 1 - 1e-3", j23 * (1 - 1e-3), [0, 1, 0]),
        case(
            "invalid: joint (4, 1), not (V,) * T (its size is 2^2)", np.full((4, 1), 0.25), [1, 0]
        ),
        case(
            "invalid: joint (2, 1, 4), not (V,) * T (its size is 2^3)",
            np.full((2, 1, 4), 0.125),
            [1, 0, 3],
        ),
        case(
            "joint sums to 1 + 5e-7 (within 1e-6), an impossible prefix (inf)",
            _with_zeros(j34, (0, 2)) * (1 + 5e-7),
            [0, 2, 1, 1],
        ),
        case(
            "joint sums to 1 - 5e-7 (within 1e-6), an impossible last token (inf)",
            _with_zeros(j23, (1, 0, 1)) * (1 - 5e-7),
            [1, 0, 1],
        ),
        # within 1e-6 of 1: accepted. The sequences are impossible (inf), so the value does
        # not depend on whether the joint is divided by its sum or used as it is
        case(
            "joint sums to 1 + 1e-8 (within 1e-6), an impossible prefix (inf)",
            _with_zeros(j34, (0, 2)) * (1 + 1e-8),
            [0, 2, 1, 1],
        ),
        case(
            "joint sums to 1 - 1e-8 (within 1e-6), an impossible last token (inf)",
            _with_zeros(j23, (1, 0, 1)) * (1 - 1e-8),
            [1, 0, 1],
        ),
        case("arguments by name (joint=, tokens=)", joint=j23, tokens=[1, 1, 0]),
    ]

    def draw(r: np.random.Generator) -> Case:
        vocab, length = int(r.integers(1, 5)), int(r.integers(1, 5))
        joint = _joint(r, vocab, length, float(r.choice([0.3, 1.0, 5.0])))
        tokens = r.integers(0, vocab, size=length)
        label = "random"
        if vocab > 1 and r.integers(0, 3) == 0:  # some sequences, or prefixes, impossible
            zeros = r.random(joint.shape) < 0.3
            zeros.flat[int(r.integers(0, joint.size))] = False  # something stays possible
            joint = _with_zeros(joint, (zeros,))
            label = "random with exact zeros"
        as_list = bool(r.integers(0, 2))
        return case(label, joint, tokens.tolist() if as_list else tokens)

    return _fill(n, edges, rng, draw)


# -- stage 2 ---------------------------------------------------------------------------------
@generator("giant_mlp_parameter_log10", subject="giant_mlp_parameter_log10")
def gen_giant_mlp(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case("chapter V=50257 T=1000 hidden=4096", 50257, 1000, 4096),
        case("V=1 hidden=1", 1, 5, 1),
        case("T=0", 2, 0, 7),
        case("NumPy ints", np.int64(50257), np.int32(32), np.int16(4096)),
        case("invalid hidden=0", 50257, 10, 0),
        case("invalid V=0", 0, 10, 4096),
        case("invalid T<0", 50257, -1, 4096),
        case("arguments by name (vocab=, length=, hidden=)", vocab=50257, length=1000, hidden=4096),
    ]

    def draw(r: np.random.Generator) -> Case:
        return case("random", _log_int(r, 1, 10**6), _log_int(r, 0, 10**4), _log_int(r, 1, 10**5))

    return _fill(n, edges, rng, draw)


@generator("averaging_model", subject="averaging_model")
def gen_averaging(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case("T=1 d=1", rng.standard_normal((1, 1))),
        case("T=1", rng.standard_normal((1, 8))),
        case("d=1", rng.standard_normal((16, 1))),
        case("large magnitudes", rng.standard_normal((12, 4)) * 1e6),
        case("long T", rng.standard_normal((200, 3))),
        case("invalid: T=0", np.zeros((0, 3))),
        case("invalid: d=0", np.zeros((3, 0))),
        case("invalid: a vector", np.zeros(5)),
        case("invalid: (B, T, d)", np.zeros((2, 3, 4))),
        case("arguments by name (x=)", x=rng.standard_normal((5, 3))),
        case("float32 x: a float64 result", (np.arange(12).reshape(4, 3) / 7).astype(np.float32)),
    ]

    def draw(r: np.random.Generator) -> Case:
        t_len, d = int(r.integers(1, 40)), int(r.integers(1, 9))
        return case("random", r.standard_normal((t_len, d)) * float(r.choice([0.1, 1.0, 30.0])))

    return _fill(n, edges, rng, draw)


# -- stages 3-4: parameter counts -------------------------------------------------------------
POSITIONS = ("none", "sinusoidal", "rope", "learned")


@generator("transformer_parameter_count", subject="transformer_parameter_count")
def gen_transformer_count(rng: np.random.Generator, n: int) -> list[Case]:
    gpt2 = (50257, 768, 12, 3072, 1024)
    edges = [
        case("chapter GPT-2 small", 50257, 768, 12, 3072, 1000, n_head=12),
        case(
            "real GPT-2 small",
            *gpt2,
            n_head=12,
            positions="learned",
            biases=True,
            layernorm=True,
        ),
        case("tied=False", *gpt2, n_head=12, tied=False),
        case(
            "everything on, untied",
            *gpt2,
            positions="learned",
            biases=True,
            layernorm=True,
            tied=False,
        ),
        case("n_head left out, d=100", 1000, 100, 2, 400, 64),
        case("n_head=1", 1000, 100, 2, 400, 64, n_head=1),
        case("n_head=d", 1000, 96, 2, 384, 64, n_head=96),
        case("n_layer=0", 50257, 768, 0, 3072, 1000, layernorm=True),
        case("learned, context 0", 50257, 768, 12, 3072, 0, positions="learned"),
        case("sinusoidal", *gpt2, positions="sinusoidal"),
        case("rope", *gpt2, positions="rope", biases=True),
        case(
            "NumPy int32 past 2^31",
            np.int32(128256),
            np.int32(8192),
            np.int32(80),
            np.int32(28672),
            np.int32(8192),
            n_head=np.int32(64),
            positions="learned",
            tied=False,
        ),
        case(
            "NumPy int64",
            np.int64(32000),
            np.int64(4096),
            np.int64(32),
            np.int64(11008),
            np.int64(4096),
        ),
        case("invalid: n_head does not divide d", 1000, 100, 2, 400, 64, n_head=12),
        case("invalid: positions", *gpt2, positions="alibi"),
        case("invalid: vocab < 0", -1, 768, 12, 3072, 1000),
        case("invalid: d_model = 0", 50257, 0, 12, 3072, 1000),
        case("invalid: n_layer < 0", 50257, 768, -1, 3072, 1000),
        case("invalid: d_ff = 0", 50257, 768, 12, 0, 1000),
        case("invalid: context_length < 0", 50257, 768, 12, 3072, -1),
        case("invalid: n_head = 0", 1000, 100, 2, 400, 64, n_head=0),
        case('invalid: biases="no" (not a bool)', 1000, 100, 2, 400, 64, biases="no"),
        case("invalid: layernorm=1 (not a bool)", 1000, 100, 2, 400, 64, layernorm=1),
        case("invalid: tied=None (not a bool)", 1000, 100, 2, 400, 64, tied=None),
        case("invalid: tied=0 (an int, not a bool)", 1000, 100, 2, 400, 64, tied=0),
        case("invalid: tied=1 (an int, not a bool)", 1000, 100, 2, 400, 64, tied=1),
        case("invalid: biases=0 (an int, not a bool)", 1000, 100, 2, 400, 64, biases=0),
        case("invalid: n_head=-4 (divides d, but below 1)", 1000, 100, 2, 400, 64, n_head=-4),
        case("invalid: vocab=0 (vocab >= 1)", 0, 768, 12, 3072, 1024),
        case("invalid: positions=None (not one of the four)", *gpt2, positions=None),
        case('invalid: positions="Learned" (the names are lower case)', *gpt2, positions="Learned"),
        case('invalid: positions="ROPE"', *gpt2, positions="ROPE"),
        case('invalid: positions="rotary" (the name is "rope")', *gpt2, positions="rotary"),
        case('invalid: positions="absolute" (the name is "learned")', *gpt2, positions="absolute"),
        case(
            "arguments by name",
            vocab=50257,
            d_model=768,
            n_layer=12,
            d_ff=3072,
            context_length=1024,
            n_head=12,
            positions="learned",
            biases=True,
            layernorm=True,
            tied=False,
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        d = _log_int(r, 1, 8192)
        kwargs: dict[str, Any] = {
            "positions": str(r.choice(POSITIONS)),
            "biases": bool(r.integers(0, 2)),
            "layernorm": bool(r.integers(0, 2)),
            "tied": bool(r.integers(0, 2)),
        }
        if r.integers(0, 2):
            kwargs["n_head"] = int(r.choice(_divisors(d)))
        args = (_log_int(r, 1, 300_000), d, int(r.integers(0, 100)), _log_int(r, 1, 50_000))
        return case("random", *args, _log_int(r, 0, 200_000), **kwargs)

    return _fill(n, edges, rng, draw)


@generator("attention_parameter_count", subject="attention_parameter_count")
def gen_attention_count(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case("chapter d=768 H=1", 768, 1),
        case("chapter d=768 H=8", 768, 8),
        case("chapter d=768 H=64", 768, 64),
        case("H=d", 96, 96),
        case("d=1", 1, 1),
        case("odd d, odd H", 105, 7),
        case("NumPy int32 past 2^31", np.int32(65536), np.int32(128)),
        case("invalid: H does not divide d", 100, 12),
        case("invalid: H=0", 768, 0),
        case("invalid: H=-4 (divides d, but below 1)", 768, -4),
        case("invalid: d=0", 0, 1),
        case("arguments by name (d_model=, n_head=)", d_model=768, n_head=12),
    ]

    def draw(r: np.random.Generator) -> Case:
        d = _log_int(r, 1, 20_000)
        return case("random", d, int(r.choice(_divisors(d))))

    return _fill(n, edges, rng, draw)


@generator("moe_parameter_count", subject="moe_parameter_count")
def gen_moe_count(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case("beyond.moe E=1", 16, 64, 1),
        case("beyond.moe E=16", 16, 64, 16),
        case("NumPy int64", np.int64(4096), np.int64(14336), np.int64(8)),
        case("NumPy int32 past 2^31", np.int32(8192), np.int32(28672), np.int32(64)),
        case("invalid: E=0", 16, 64, 0),
        case("invalid: d_ff=0", 16, 0, 4),
        case("invalid: d=0", 0, 64, 4),
        case("arguments by name (d_model=, d_ff=, n_experts=)", d_model=16, d_ff=64, n_experts=8),
    ]

    def draw(r: np.random.Generator) -> Case:
        return case("random", _log_int(r, 1, 8192), _log_int(r, 1, 32768), _log_int(r, 1, 256))

    return _fill(n, edges, rng, draw)


@generator("logits_memory_bytes", subject="logits_memory_bytes")
def gen_logits_memory(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case("chapter FP32", 1, 1000, 50257, 4),
        case("bytes_per_value left out (FP32)", 1, 1500, 50257),
        case("batch 8, FP16", 8, 4096, 128256, 2),
        case("batch 3, FP64", 3, 1000, 50257, 8),
        case("batch 32, 1 byte", 32, 2048, 32000, 1),
        case("NumPy int32 past 2^31", np.int32(8), np.int32(4096), np.int32(128256)),
        case("NumPy int64", np.int64(16), np.int64(8192), np.int64(256000), np.int64(2)),
        case("zero length", 4, 0, 50257, 4),
        case("zero batch", 0, 1000, 50257, 4),
        case("zero vocab", 1, 1000, 0),
        case("bytes_per_value=3 (any integer >= 1)", 1, 1000, 50257, 3),
        case("a product past 2^63 (an exact int, no int64 wrap)", 2**21, 2**21, 2**21, 2),
        case(
            "NumPy int64 sizes, a product past 2^63",
            np.int64(2**21),
            np.int64(2**21),
            np.int64(2**21),
            np.int64(2),
        ),
        case(
            "arguments by name",
            batch=8,
            length=4096,
            vocab=128256,
            bytes_per_value=2,
        ),
        case("invalid: batch < 0", -1, 1000, 50257, 4),
        case("invalid: length < 0", 1, -1, 50257, 4),
        case("invalid: vocab < 0", 1, 1000, -1, 4),
        case("invalid: bytes_per_value=0", 1, 1000, 50257, 0),
    ]

    def draw(r: np.random.Generator) -> Case:
        sizes = (_log_int(r, 1, 512), _log_int(r, 1, 131072), _log_int(r, 1, 262144))
        if r.integers(0, 4) == 0:
            return case("random, default bytes", *sizes)
        return case("random", *sizes, int(r.choice([1, 2, 4, 8])))

    return _fill(n, edges, rng, draw)


# -- stages 3-5: operators ----------------------------------------------------------------------
def _weights(r: np.random.Generator, rows: int, cols: int) -> Array:
    return r.standard_normal((rows, cols)) / math.sqrt(rows)


@generator("position_wise_mlp", subject="position_wise_mlp")
def gen_mlp(rng: np.random.Generator, n: int) -> list[Case]:
    def mlp(
        r: np.random.Generator, t: int, d: int, d_ff: int, scale: float = 1.0
    ) -> tuple[Array, ...]:
        return r.standard_normal((t, d)) * scale, _weights(r, d, d_ff), _weights(r, d_ff, d)

    x, w_in, w_out = mlp(rng, 4, 6, 10)
    edges = [
        case("T=1", *mlp(rng, 1, 8, 32)),
        case("d=1, d_ff=1", *mlp(rng, 5, 1, 1)),
        case("non-square, d_ff < d", *mlp(rng, 7, 12, 5)),
        case("pre-activations around 0 (where GELU forms differ)", *mlp(rng, 6, 8, 32, 0.5)),
        case("large pre-activations (GELU saturates)", *mlp(rng, 6, 8, 16, 40.0)),
        case("invalid: w_in does not match x", x, _weights(rng, 5, 10), w_out),
        case("invalid: w_out does not match w_in", x, w_in, _weights(rng, 9, 6)),
        case("arguments by name (x=, w_in=, w_out=)", x=x, w_in=w_in, w_out=w_out),
        case(
            "float32 inputs: a float64 result",
            x.astype(np.float32),
            w_in.astype(np.float32),
            w_out.astype(np.float32),
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        t, d, d_ff = int(r.integers(1, 13)), int(r.integers(1, 11)), int(r.integers(1, 41))
        return case("random", *mlp(r, t, d, d_ff, float(r.choice([0.3, 1.0, 3.0]))))

    return _fill(n, edges, rng, draw)


@generator("causal_masked_attention", subject="causal_masked_attention")
def gen_causal_mask(rng: np.random.Generator, n: int) -> list[Case]:
    t = 6
    trap = np.full((t, t), 1e4)  # the future scores +1e4 ...
    trap[np.tril_indices(t)] = -1e4  # ... the visible ones -1e4: a -1e4 mask leaves them tied
    edges = [
        case("T=1", rng.standard_normal((1, 1))),
        case("T=2", rng.standard_normal((2, 2)) * 3),
        case("heads (H, T, T)", rng.standard_normal((4, 7, 7)) * 3),
        case("batch and heads (B, H, T, T)", rng.standard_normal((2, 3, 5, 5)) * 3),
        case("scores of ±1e3: exp overflows without the max", rng.uniform(-1e3, 1e3, (8, 8))),
        case("scores of ±1e4", rng.uniform(-1e4, 1e4, (8, 8))),
        case("visible -1e4, future +1e4", trap),
        case("scores of ±1e300", rng.uniform(-1e300, 1e300, (5, 5))),
        case(
            "every score far below 0 (exp underflows without the max)",
            rng.uniform(-3e3, -1e3, (7, 7)),
        ),
        case(
            "heads at very different scales",
            rng.standard_normal((3, 6, 6)) * np.array([1.0, 1e3, -1e3])[:, None, None]
            - np.array([0.0, 0.0, 2e3])[:, None, None],
        ),
        case("equal scores", np.zeros((6, 6))),
        case("invalid: not square", rng.standard_normal((3, 4))),
        case("invalid: a vector", rng.standard_normal(4)),
        case("invalid: T=0", np.zeros((0, 0))),
        case("arguments by name (scores=)", scores=rng.standard_normal((5, 5))),
        case(
            "float32 scores: float64 weights", (np.arange(9).reshape(3, 3) / 4).astype(np.float32)
        ),
        case(
            "every score at finfo(float64).min: the future still gets 0",
            np.full((3, 3), np.finfo(np.float64).min),
        ),
        case(
            "heads with visible scores at finfo(float64).min",
            np.where(np.eye(4, dtype=bool), np.finfo(np.float64).min, -1.0)[None]
            * np.ones((2, 1, 1)),
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        t_len = int(r.integers(1, 13))
        lead = [(), (int(r.integers(1, 4)),)][int(r.integers(0, 2))]
        scale = float(r.choice([1.0, 3.0, 30.0]))
        return case("random", r.standard_normal((*lead, t_len, t_len)) * scale)

    return _fill(n, edges, rng, draw)


def _mha(
    r: np.random.Generator, t: int, d: int, n_head: int, hs: int, d_out: int, scale: float = 1.0
) -> tuple[Any, ...]:
    width = n_head * hs
    x = r.standard_normal((t, d)) * scale
    return (x, *(_weights(r, d, width) for _ in range(3)), _weights(r, width, d_out), n_head)


def _mha_extreme(r: np.random.Generator, scale: float, sign: float) -> tuple[Any, ...]:
    """Two heads of 4 (d = W = 8, so 1/√hs, 1/√d and 1/hs all differ) on inputs of size
    ``scale``, keys projected by ``sign`` times the query weights: every score q·k/√hs is of
    the order of ``sign``·scale² (±1e3 at scale 40), beyond exp's range either way."""
    x = np.abs(r.standard_normal((6, 8))) * scale + scale / 4  # (T, d), positive
    w_q = np.abs(r.standard_normal((8, 8))) / math.sqrt(8)  # (d, W), positive
    return x, w_q, sign * w_q, _weights(r, 8, 8), _weights(r, 8, 8), 2


@generator("multi_head_attention", subject="multi_head_attention")
def gen_mha(rng: np.random.Generator, n: int) -> list[Case]:
    x, w_q, w_k, w_v, w_o, _ = _mha(rng, 5, 8, 2, 4, 8)
    edges = [
        case("T=1", *_mha(rng, 1, 8, 2, 4, 8)),
        case("H=1", *_mha(rng, 6, 8, 1, 8, 8)),
        case("H=W (head size 1)", *_mha(rng, 6, 8, 8, 1, 8)),
        case("H=2, head size 4, W=d", *_mha(rng, 7, 8, 2, 4, 8)),
        case("H=3, W=12 != d=8, d_out=5", *_mha(rng, 6, 8, 3, 4, 5)),
        case("H=4, W=8 != d=16", *_mha(rng, 5, 16, 4, 2, 16)),
        case("large inputs (sharp softmax)", *_mha(rng, 6, 8, 2, 4, 8, 8.0)),
        case("scores past 1e3 (exp overflows without the max)", *_mha_extreme(rng, 40.0, 1.0)),
        case(
            "every score far below 0 (exp underflows without the max)",
            *_mha_extreme(rng, 40.0, -1.0),
        ),
        case("n_head as NumPy int64", x, w_q, w_k, w_v, w_o, np.int64(4)),
        case("invalid: n_head does not divide W", x, w_q, w_k, w_v, w_o, 3),
        case("invalid: n_head=0", x, w_q, w_k, w_v, w_o, 0),
        case("invalid: w_q has d+1 rows", x, _weights(rng, 9, 8), w_k, w_v, w_o, 2),
        case("invalid: w_k of another width", x, w_q, _weights(rng, 8, 6), w_v, w_o, 2),
        case("invalid: w_o without W rows", x, w_q, w_k, w_v, _weights(rng, 6, 8), 2),
        case(
            "arguments by name",
            x=x,
            w_q=w_q,
            w_k=w_k,
            w_v=w_v,
            w_o=w_o,
            n_head=2,
        ),
        case(
            "float32 inputs: projections at float64 precision",
            *(a.astype(np.float32) for a in (x, w_q, w_k, w_v, w_o)),
            2,
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        n_head, hs = int(r.integers(1, 5)), int(r.integers(1, 6))
        t, d, d_out = int(r.integers(1, 10)), int(r.integers(1, 13)), int(r.integers(1, 9))
        return case("random", *_mha(r, t, d, n_head, hs, d_out, float(r.choice([1.0, 3.0]))))

    return _fill(n, edges, rng, draw)


# -- stage 6: sampling --------------------------------------------------------------------------
@generator("softmax_temperature", subject="softmax_temperature")
def gen_softmax_temperature(rng: np.random.Generator, n: int) -> list[Case]:
    chapter = np.array([2.0, 1.0, -1.0])
    z16 = (rng.standard_normal(12) * 3).astype(np.float16)
    edges = [
        *(case(f"chapter T={t:g}", chapter, t) for t in (0.1, 1.0, 10.0, 1000.0)),
        case("V=1", np.array([0.3]), 0.7),
        case("ties in the logits", np.array([1.0, 3.0, 3.0, -2.0, 1.0]), 0.5),
        case("integer logits (float64 out)", np.array([3, 1, 4, 1, 5]), 2.0),
        case("integer T", chapter, 2),
        case("float32 logits stay float32", (rng.standard_normal(10) * 3).astype(np.float32), 0.7),
        case("float16 logits stay float16", z16, 1.5),
        case("float16 at T=1e-5 (dividing first overflows)", z16, 1e-5),
        case("float16 at T=1e-8 (T itself is 0 in float16)", z16, 1e-8),
        case(
            "float32 at T=1e-3, logits ~100",
            (rng.standard_normal(8) * 100).astype(np.float32),
            1e-3,
        ),
        case(
            "float64 logits ±1e4 (exp overflows without the max)", rng.uniform(-1e4, 1e4, 16), 1.0
        ),
        case("float64 at T=1e-300", rng.standard_normal(6), 1e-300),
        case("a batch (B, V): softmax over the last axis", rng.standard_normal((3, 7)) * 2, 0.8),
        case("(B, T, V): softmax over the last axis", rng.standard_normal((2, 3, 4)) * 2, 1.3),
        case("(B, T, V) with V = T: the last axis", rng.standard_normal((2, 5, 5)) * 2, 0.6),
        case(
            "a batch whose rows lie far apart ([0, 0] and [−1000, −1001])",
            np.array([[0.0, 0.0], [-1000.0, -1001.0]]),
            1.0,
        ),
        case("a batch, rows offset by ±1e3", _far_rows(rng, np.float64), 1.0),
        case("a float32 batch, rows offset by ±1e3", _far_rows(rng, np.float32), 2.0),
        case("a batch, rows offset by ±10 at T=0.01", _far_rows(rng, np.float64) / 100, 0.01),
        case("invalid: T=0", chapter, 0.0),
        case("invalid: T<0", chapter, -1.0),
        case("invalid: T=NaN", chapter, math.nan),
        case("invalid: T=inf", chapter, math.inf),
        case("invalid: a NaN logit", np.array([1.0, math.nan, 0.0]), 1.0),
        case("invalid: an infinite logit", np.array([1.0, math.inf, 0.0]), 1.0),
        case(
            "invalid: +inf and -inf logits (their sum is NaN)",
            np.array([math.inf, -math.inf, 0.0]),
            1.0,
        ),
        case("invalid: a -inf logit", np.array([1.0, -math.inf, 0.0]), 1.0),
        case(
            "logits 1e308, 1e308, 0: finite, their sum overflows",
            np.array([1e308, 1e308, 0.0]),
            1.0,
        ),
        case("uint8 logits: float64, no wrap-around", np.array([3, 1, 4], dtype=np.uint8), 1.0),
        case("invalid: no logits", np.zeros(0), 1.0),
        case("arguments by name (logits=, temperature=)", logits=chapter, temperature=0.5),
    ]
    dtypes = (np.float64, np.float64, np.float32, np.float16)

    def draw(r: np.random.Generator) -> Case:
        dtype = dtypes[int(r.integers(0, len(dtypes)))]
        v = int(r.integers(1, 65))
        z = (r.standard_normal(v) * float(r.choice([1.0, 5.0, 30.0]))).astype(dtype)
        low = -3.0 if dtype is np.float64 else -1.0
        t = float(10 ** r.uniform(low, 3.0))
        return case(f"random {np.dtype(dtype).name}", z, t)

    return _fill(n, edges, rng, draw)


def _far_rows(r: np.random.Generator, dtype: Any) -> Array:
    """A (4, 9) batch whose rows sit at offsets +1e3, 0, −1e3 and −3e3: one max over the
    whole batch instead of per row underflows every exp of the lower rows to 0."""
    offsets = np.array([1e3, 0.0, -1e3, -3e3])[:, None]  # (B, 1)
    return (r.standard_normal((4, 9)) * 3 + offsets).astype(dtype)  # type: ignore[no-any-return]


def _tied_probs(r: np.random.Generator, v: int, k: int) -> Array:
    """A probability vector whose k-th and (k+1)-th largest entries are equal, at scattered
    indices: the boundary of top-k falls inside a tie."""
    values = np.sort(r.uniform(0.1, 1.0, v))[::-1].copy()  # (V,) descending
    if k < v:
        lo = max(0, k - 2)
        values[lo : min(v, k + 2)] = values[lo]  # a run of equal values across the boundary
    p = r.permutation(values)
    return p / p.sum()  # type: ignore[no-any-return]


@generator("top_k_renormalize", subject="top_k_renormalize")
def gen_top_k(rng: np.random.Generator, n: int) -> list[Case]:
    chapter = np.array([0.4, 0.3, 0.15, 0.1, 0.05])
    edges = [
        case("chapter k=2", chapter, 2),
        case("k=1", chapter, 1),
        case("k=V", chapter, 5),
        case("V=1", np.array([1.0]), 1),
        case("k as NumPy int64", chapter, np.int64(3)),
        case("all equal: keep the lowest indices", np.full(6, 1 / 6), 4),
        case("ties at the boundary", np.array([0.1, 0.3, 0.2, 0.2, 0.2]), 2),
        case("ties at the boundary, V=40", _tied_probs(rng, 40, 9), 9),
        case("ties at the boundary, V=100", _tied_probs(rng, 100, 30), 30),
        case("exact zeros among the kept", np.array([0.5, 0.0, 0.5, 0.0]), 3),
        case("invalid: k=0", chapter, 0),
        case("invalid: k > V", chapter, 6),
        case("invalid: a NaN probability", np.array([0.5, math.nan, 0.5]), 1),
        case("invalid: an infinite probability", np.array([0.5, math.inf, 0.5]), 1),
        case("invalid: a negative probability", np.array([0.7, -0.1, 0.4]), 2),
        case("invalid: no probabilities", np.zeros(0), 1),
        case("invalid: probs (B, V), not a vector", np.full((2, 3), 1 / 3), 1),
        case("invalid: the kept probabilities sum to 0", np.zeros(3), 2),
        case("invalid: k = np.int64(-1)", chapter, np.int64(-1)),
        case("invalid: +inf and -inf probabilities", np.array([math.inf, -math.inf, 0.0]), 1),
        case(
            "probs 1e308, 1e308, 0 at k=1: finite, their sum overflows",
            np.array([1e308, 1e308, 0.0]),
            1,
        ),
        case(
            "probs 1e308, 1e308, 1 at k=2: the kept sum overflows", np.array([1e308, 1e308, 1.0]), 2
        ),
        case(
            "probs 1e308, 1e308, 1 at k=3: the kept sum overflows", np.array([1e308, 1e308, 1.0]), 3
        ),
        case("arguments by name (probs=, k=)", probs=chapter, k=2),
    ]

    def draw(r: np.random.Generator) -> Case:
        v = int(r.integers(1, 60))
        k = int(r.integers(1, v + 1))
        if r.integers(0, 2):
            return case("random ties at k", _tied_probs(r, v, k), k)
        return case("random", r.dirichlet(np.ones(v)), k)

    return _fill(n, edges, rng, draw)


# -- stage 2, beyond the block -------------------------------------------------------------------
def _qkv(r: np.random.Generator, t: int, d: int, d_v: int, scale: float = 1.0) -> tuple[Array, ...]:
    return (
        r.standard_normal((t, d)) * scale,
        r.standard_normal((t, d)) * scale,
        r.standard_normal((t, d_v)),
    )


def _qkv_extreme(r: np.random.Generator, sign: float) -> tuple[Array, ...]:
    """q, k (T = 9, d = 2) of size about 40, k = ``sign``·q up to noise: every score
    q·k/√d is about ``sign``·1e3, beyond exp's range either way."""
    q = np.abs(r.standard_normal((9, 2))) * 30 + 25  # (T, d), positive
    k = sign * (q + r.standard_normal((9, 2)))  # (T, d)
    return q, k, r.standard_normal((9, 3))


@generator("flash_attention", subject="flash_attention")
def gen_flash(rng: np.random.Generator, n: int) -> list[Case]:
    q, k, v = _qkv(rng, 10, 4, 3)
    edges = [
        case("T=1", *_qkv(rng, 1, 4, 4), 4),
        case("block=1", *_qkv(rng, 9, 4, 2), 1),
        case("block=T", *_qkv(rng, 8, 3, 5), 8),
        case("block > T", *_qkv(rng, 7, 4, 4), 20),
        case("block does not divide T", *_qkv(rng, 17, 5, 3), 4),
        case("d_v != d", *_qkv(rng, 12, 2, 7), 5),
        case("large scores: the running max moves", *_qkv(rng, 16, 4, 4, 6.0), 3),
        case("scores past 1e3 (exp overflows without a running max)", *_qkv_extreme(rng, 1.0), 3),
        case(
            "every score far below 0 (a running max started at 0 underflows)",
            *_qkv_extreme(rng, -1.0),
            3,
        ),
        case(
            "q = k = [[40], [40]]", np.array([[40.0], [40.0]]), np.array([[40.0], [40.0]]), v[:2], 1
        ),
        case("block as NumPy int64", q, k, v, np.int64(3)),
        case("invalid: block=0", q, k, v, 0),
        case("invalid: k is not q's shape", q, k[:, :2], v, 2),
        case("invalid: v has another T", q, k, v[:4], 2),
        case("invalid: d_v = 0 (v of shape (T, 0))", q, k, v[:, :0], 2),
        case(
            "scores at finfo(float64).min in the diagonal tile",
            np.array([[np.finfo(np.float64).min], [np.finfo(np.float64).min]]),
            np.ones((2, 1)),
            np.array([[1.0], [3.0]]),
            2,
        ),
        case(
            "scores at finfo(float64).min, block 2 of T=5",
            np.full((5, 1), np.finfo(np.float64).min),
            np.ones((5, 1)),
            np.arange(5.0)[:, None],
            2,
        ),
        case("arguments by name (q=, k=, v=, block=)", q=q, k=k, v=v, block=3),
    ]

    def draw(r: np.random.Generator) -> Case:
        t = int(r.integers(1, 41))
        qkv = _qkv(
            r, t, int(r.integers(1, 9)), int(r.integers(1, 9)), float(r.choice([0.3, 1.0, 4.0]))
        )
        return case("random", *qkv, int(r.integers(1, t + 4)))

    return _fill(n, edges, rng, draw)


@generator("linear_attention", subject="linear_attention")
def gen_linear(rng: np.random.Generator, n: int) -> list[Case]:
    q, k, v = _qkv(rng, 6, 3, 2)
    edges = [
        case("T=1", *_qkv(rng, 1, 4, 4)),
        case("d=1", *_qkv(rng, 9, 1, 3)),
        case("d_v != d", *_qkv(rng, 12, 2, 7)),
        case("large |q|, |k| (φ = x + 1 and e^x both reached)", *_qkv(rng, 10, 4, 4, 8.0)),
        case("all negative q, k (φ = e^x only)", -np.abs(q), -np.abs(k), v),
        case("q, k up to 1e3 (e^x overflows where φ = x + 1)", np.abs(q) * 300, np.abs(k) * 300, v),
        case(
            "q, k down to −300 (φ = e^x near 1e-130)",
            -np.abs(q) * 100 - 100,
            -np.abs(k) * 100 - 100,
            v,
        ),
        case("invalid: k is not q's shape", q, k[:, :2], v),
        case("invalid: v has another T", q, k, v[:4]),
        case("arguments by name (q=, k=, v=)", q=q, k=k, v=v),
    ]

    def draw(r: np.random.Generator) -> Case:
        t = int(r.integers(1, 41))
        return case(
            "random",
            *_qkv(
                r, t, int(r.integers(1, 9)), int(r.integers(1, 9)), float(r.choice([0.3, 1.0, 3.0]))
            ),
        )

    return _fill(n, edges, rng, draw)


def _moe(
    r: np.random.Generator, t: int, d: int, d_ff: int, n_experts: int, top_k: int
) -> tuple[Any, ...]:
    x = r.standard_normal((t, d))
    w_router = r.standard_normal((d, n_experts))
    w_in = r.standard_normal((n_experts, d, d_ff)) / math.sqrt(d)
    w_out = r.standard_normal((n_experts, d_ff, d)) / math.sqrt(d_ff)
    return x, w_router, w_in, w_out, top_k


def _moe_tied(
    r: np.random.Generator, t: int, d: int, n_experts: int, top_k: int
) -> tuple[Any, ...]:
    """Experts whose router columns are copies of each other, in groups of three: every
    token's scores tie, and the top-k boundary falls inside a tie (the lower expert index
    must be kept). Inputs and router weights are small integers, so every score is exact
    whatever order an implementation sums in: the ties are ties in any arithmetic."""
    _, _, w_in, w_out, _ = _moe(r, t, d, 6, n_experts, top_k)
    x = r.integers(-3, 4, size=(t, d)).astype(np.float64)
    w_router = r.integers(-3, 4, size=(d, n_experts)).astype(np.float64)
    for e in range(n_experts):  # groups of three identical columns: 0-2, 3-5, ...
        if e % 3:
            w_router[:, e] = w_router[:, e - e % 3]
    return x, w_router, w_in, w_out, top_k


@generator("moe_layer", subject="moe_layer")
def gen_moe(rng: np.random.Generator, n: int) -> list[Case]:
    x, w_router, w_in, w_out, _ = _moe(rng, 6, 4, 8, 4, 2)
    edges = [
        case("E=1 top-1: the dense FFN", *_moe(rng, 5, 4, 8, 1, 1)),
        case("top-1", *_moe(rng, 8, 4, 8, 4, 1)),
        case("top-2 of 4", *_moe(rng, 8, 4, 8, 4, 2)),
        case("top_k = E", *_moe(rng, 6, 3, 5, 3, 3)),
        case("T=1", *_moe(rng, 1, 4, 8, 5, 2)),
        case("ties at the top-k boundary", *_moe_tied(rng, 7, 4, 6, 2)),
        case("ties at the top-k boundary, E=20", *_moe_tied(rng, 9, 4, 20, 4)),
        case(
            "router scores of ±1e3 (exp overflows without the max)",
            x,
            w_router * 400,
            w_in,
            w_out,
            2,
        ),
        case(
            "every router score far below 0 (exp underflows without the max)",
            np.abs(x) + 1,
            -(np.abs(w_router) + 1) * 200,
            w_in,
            w_out,
            3,
        ),
        case("top_k as NumPy int64", x, w_router, w_in, w_out, np.int64(2)),
        case("invalid: top_k=0", x, w_router, w_in, w_out, 0),
        case("invalid: top_k > E", x, w_router, w_in, w_out, 5),
        case(
            "invalid: w_router has d+1 rows", x, np.vstack([w_router, w_router[:1]]), w_in, w_out, 2
        ),
        case("invalid: experts_w_in for another E", x, w_router, w_in[:3], w_out, 2),
        case("invalid: experts_w_out of another d_ff", x, w_router, w_in, w_out[:, :5], 2),
        case(
            "arguments by name",
            x=x,
            w_router=w_router,
            experts_w_in=w_in,
            experts_w_out=w_out,
            top_k=2,
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        n_experts = int(r.integers(1, 9))
        top_k = int(r.integers(1, n_experts + 1))
        t, d, d_ff = int(r.integers(1, 11)), int(r.integers(1, 7)), int(r.integers(1, 9))
        if n_experts >= 3 and r.integers(0, 3) == 0:
            return case("random ties", *_moe_tied(r, t, d, n_experts, top_k))
        return case("random", *_moe(r, t, d, d_ff, n_experts, top_k))

    return _fill(n, edges, rng, draw)


# -- the audit's functions: decoding, per-position blocks, positions, KV cache, BPE ----------------
# probabilities whose top entry p0 = 0.3603... is not what the running sum minus the second
# entry gives back ((p0 + p1) - p1 != p0 in float64): a cut at p = p0 keeps the top token
# alone under the contract's running sum, and two under ``cumsum - self``
TOP_P_PROBS = np.array(
    [
        0.06064767691213046,
        0.001178139945358433,
        0.00013498409437741207,
        0.032735495896095576,
        0.09695212032778491,
        0.0400660625929102,
        0.04492683693866049,
        0.16754806947175593,
        0.3603272813427511,
        0.19548333247817537,
    ]
)


@generator("top_p_renormalize", subject="top_p_renormalize")
def gen_top_p(rng: np.random.Generator, n: int) -> list[Case]:
    probs = np.array([0.4, 0.3, 0.15, 0.1, 0.05])
    edges = [
        case("p = 0.5: the token crossing p is kept", probs, 0.5),
        case("p exactly at a prefix sum (0.4 + 0.3)", probs, 0.7),
        case(
            "p just above a prefix sum (0.6 + 1e-9): the third token is kept",
            np.array([0.3, 0.3, 0.2, 0.2]),
            0.6 + 1e-9,
        ),
        case("p just below a prefix sum (0.6 − 1e-9)", np.array([0.3, 0.3, 0.2, 0.2]), 0.6 - 1e-9),
        case("p = 1 keeps every token", probs, 1.0),
        case("p tiny: the top token alone", probs, 1e-9),
        case("V=1", np.array([1.0]), 0.3),
        case("ties across the cut: lower index first", np.array([0.1, 0.3, 0.3, 0.3]), 0.5),
        case("exact zeros", np.array([0.0, 0.6, 0.0, 0.4]), 0.9),
        case("p as an int (1)", probs, 1),
        case("invalid: p = 0", probs, 0.0),
        case("invalid: p > 1", probs, 1.5),
        case("invalid: p = NaN", probs, math.nan),
        case("invalid: a NaN probability", np.array([0.5, math.nan, 0.5]), 0.5),
        case("invalid: an infinite probability", np.array([0.5, math.inf, 0.5]), 0.5),
        case("invalid: a negative probability", np.array([0.7, -0.1, 0.4]), 0.5),
        case("invalid: no probabilities", np.zeros(0), 0.5),
        case("invalid: +inf and -inf probabilities", np.array([math.inf, -math.inf, 0.0]), 0.5),
        case(
            "probs 1e308, 1e308, 0: finite, their sum overflows", np.array([1e308, 1e308, 0.0]), 0.3
        ),
        case(
            "probs 1e308, 1e308, 1 at p = 1: every token, rescaled",
            np.array([1e308, 1e308, 1.0]),
            1.0,
        ),
        case(
            "p equal to the top probability: the top token alone",
            TOP_P_PROBS,
            float(TOP_P_PROBS.max()),
        ),
        case(
            "p equal to the float64 running sum of the top two",
            TOP_P_PROBS,
            float(np.cumsum(np.sort(TOP_P_PROBS)[::-1])[1]),
        ),
        case("arguments by name (probs=, p=)", probs=probs, p=0.5),
    ]

    def draw(r: np.random.Generator) -> Case:
        v = int(r.integers(1, 50))
        p = r.dirichlet(np.ones(v) * float(r.choice([0.2, 1.0, 5.0])))
        if r.integers(0, 3) == 0:  # a cut at a prefix sum of a few dyadic probabilities
            p = np.round(p * 64) / 64
            if p.sum() == 0:
                p[0] = 1.0
            p = p / p.sum()
        if v > 1 and r.integers(0, 3) == 0:
            # p within 1e-9 of a prefix sum of the ranked probabilities: far beyond float64's
            # rounding of the running sum (1e-16), inside float32's (6e-8)
            prefix = np.cumsum(np.sort(p)[::-1])[int(r.integers(0, v - 1))]
            cut = float(prefix + float(r.choice([-1e-9, 1e-9])))
            if 0.0 < cut <= 1.0:
                return case("random, p within 1e-9 of a prefix sum", p, cut)
        return case("random", p, float(r.uniform(0.01, 1.0)))

    return _fill(n, edges, rng, draw)


@generator("greedy_token", subject="greedy_token")
def gen_greedy(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case("chapter logits", np.array([2.0, 1.0, -1.0])),
        case("V=1", np.array([-3.0])),
        case("ties at the top: the lowest index", np.array([1.0, 5.0, 2.0, 5.0, 5.0])),
        case("a near tie: [1, 1 + 1e-12]", np.array([1.0, 1.0 + 1e-12])),
        case("a near tie at 1e6 (1e-9 apart)", np.array([3.0, 1e6, 1e6 + 1e-9, -2.0])),
        case("a near tie below 0 (1e-13 apart)", np.array([-0.5 - 1e-13, -0.5, -7.0])),
        case("all equal", np.zeros(7)),
        case("-inf entries", np.array([-np.inf, -1.0, -np.inf])),
        case("float16 logits", np.array([0.5, 3.0, 3.0], dtype=np.float16)),
        case("integer logits", np.array([3, 9, 2, 9])),
        case(
            "int64 logits 2^53 and 2^53 + 1 (equal once cast to float64)",
            np.array([2**53, 2**53 + 1, 5], dtype=np.int64),
        ),
        case("arguments by name (logits=)", logits=np.array([0.5, 2.0, -1.0])),
        case("invalid: a NaN", np.array([1.0, math.nan, 0.0])),
        case("invalid: a NaN in float32 logits", np.array([1.0, math.nan, 0.0], dtype=np.float32)),
        case("invalid: a NaN in float16 logits", np.array([1.0, math.nan, 0.0], dtype=np.float16)),
        case(
            "+inf and -inf (their sum is NaN): +inf ranks first",
            np.array([-math.inf, math.inf, 0.0]),
        ),
        case("invalid: no logits", np.zeros(0)),
    ]

    def draw(r: np.random.Generator) -> Case:
        v = int(r.integers(1, 100))
        z = r.standard_normal(v) * 3
        if r.integers(0, 2):
            z = np.round(z)  # small integers: ties at the top are common
        if r.integers(0, 3) == 0:  # the top two 1e-12 (relative) apart, in either order
            top = int(np.argmax(z))
            other = int(r.integers(0, v))
            if other != top:
                z[other] = z[top] * (1 + float(r.choice([-1e-12, 1e-12]))) + float(
                    r.choice([-1e-12, 1e-12])
                )
                return case("random near tie", z)
        return case("random", z)

    return _fill(n, edges, rng, draw)


@generator("layer_norm", subject="layer_norm")
def gen_layer_norm(rng: np.random.Generator, n: int) -> list[Case]:
    def ln(r: np.random.Generator, t: int, d: int, scale: float = 1.0) -> tuple[Array, ...]:
        x = r.standard_normal((t, d)) * scale + r.standard_normal()
        return x, r.standard_normal(d), r.standard_normal(d)

    x, g, b = ln(rng, 4, 6)
    edges = [
        case("T=1", *ln(rng, 1, 8)),
        case("d=1: every row normalizes to 0", *ln(rng, 5, 1)),
        case("a constant row: variance 0, eps matters", np.full((2, 4), 3.0), g[:4], b[:4]),
        case("tiny features: eps matters", *ln(rng, 3, 6, 1e-3)),
        case("large offsets", x + 1e4, g, b),
        case("eps given", x, g, b, 1e-2),
        case("eps as a keyword", x, g, b, eps=0.1),
        case("invalid: gain of another width", x, g[:3], b),
        case("invalid: bias of another width", x, g, b[:5]),
        case("invalid: eps = 0", x, g, b, 0.0),
        case("invalid: eps < 0", x, g, b, -1e-5),
        case("invalid: bias of shape (1,) (would broadcast)", x, g, b[:1]),
        case("invalid: gain of shape (1,) (would broadcast)", x, g[:1], b),
        case("invalid: gain of shape (1, d) (the right size, not (d,))", x, g[None, :], b),
        case("invalid: bias of shape (d, 1)", x, g, b[:, None]),
        case(
            "float32 input: a float64 result",
            x.astype(np.float32),
            g.astype(np.float32),
            b.astype(np.float32),
        ),
        case("arguments by name (x=, gain=, bias=, eps=)", x=x, gain=g, bias=b, eps=1e-3),
    ]

    def draw(r: np.random.Generator) -> Case:
        return case(
            "random",
            *ln(
                r, int(r.integers(1, 12)), int(r.integers(1, 16)), float(r.choice([0.1, 1.0, 10.0]))
            ),
        )

    return _fill(n, edges, rng, draw)


@generator("embedding_lookup", subject="embedding_lookup")
def gen_embedding(rng: np.random.Generator, n: int) -> list[Case]:
    table = rng.standard_normal((10, 4))
    edges = [
        case("ids as int64", np.array([0, 9, 3, 3]), table),
        case("ids as int32", np.array([2, 1], dtype=np.int32), table),
        case("ids as uint8", np.array([7], dtype=np.uint8), table),
        case("T=0: no positions", np.zeros(0, dtype=np.int64), table),
        case("T=0: an empty float vector (np.array([]))", np.array([]), table),
        case("T=0: an empty list", [], table),
        case("V=1", np.zeros(3, dtype=np.int64), rng.standard_normal((1, 5))),
        case("invalid: an id = V", np.array([0, 10]), table),
        case("invalid: a negative id", np.array([-1]), table),
        case("invalid: float ids (1.7)", np.array([1.7, 0.0]), table),
        case("invalid: float ids, whole numbers (2.0)", np.array([2.0, 3.0]), table),
        case("invalid: ids (B, T), not a vector", np.array([[0, 1], [2, 3]]), table),
        case("invalid: a table that is not (V, d)", np.array([0, 1]), rng.standard_normal(10)),
        case("invalid: a 0-d id (np.int64(3)), not a vector", np.int64(3), table),
        case("invalid: a 0-d id array", np.array(3), table),
        case("invalid: boolean ids (a mask, not ids)", np.array([True, False, True]), table),
        case("float32 table: float64 rows", np.array([3, 1]), table.astype(np.float32)),
        case("arguments by name (tokens=, table=)", tokens=np.array([1, 2]), table=table),
    ]

    def draw(r: np.random.Generator) -> Case:
        v, d, t = int(r.integers(1, 50)), int(r.integers(1, 9)), int(r.integers(1, 20))
        return case("random", r.integers(0, v, size=t), r.standard_normal((v, d)))

    return _fill(n, edges, rng, draw)


@generator("output_head", subject="output_head")
def gen_output_head(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case("T=1", rng.standard_normal((1, 6)), rng.standard_normal((9, 6))),
        case("V=1", rng.standard_normal((4, 3)), rng.standard_normal((1, 3))),
        case("V < d", rng.standard_normal((5, 8)), rng.standard_normal((3, 8))),
        case("invalid: widths differ", rng.standard_normal((4, 3)), rng.standard_normal((5, 4))),
        case(
            "invalid: h of width 1, table of width 3 (would broadcast)",
            rng.standard_normal((2, 1)),
            rng.standard_normal((4, 3)),
        ),
        case(
            "invalid: h of width 3, table of width 1 (would broadcast)",
            rng.standard_normal((2, 3)),
            rng.standard_normal((4, 1)),
        ),
        case(
            "arguments by name (h=, table=)",
            h=rng.standard_normal((3, 4)),
            table=rng.standard_normal((6, 4)),
        ),
        case(
            "float32 h and table: float64 logits",
            (np.arange(6).reshape(2, 3) / 7).astype(np.float32),
            (np.arange(12).reshape(4, 3) / 11).astype(np.float32),
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        t, d, v = int(r.integers(1, 12)), int(r.integers(1, 10)), int(r.integers(1, 40))
        return case("random", r.standard_normal((t, d)), r.standard_normal((v, d)))

    return _fill(n, edges, rng, draw)


@generator("sinusoidal_positions", subject="sinusoidal_positions")
def gen_sinusoidal(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case("T=0", 0, 8),
        case("d=2: one pair", 5, 2),
        case("GPT-2 width", 16, 768),
        case("long T", 5000, 4),
        case("NumPy integers", np.int64(7), np.int32(6)),
        case("invalid: odd d", 4, 5),
        case("invalid: d = 0", 4, 0),
        case("invalid: T < 0", -1, 4),
        case("arguments by name (length=, d_model=)", length=6, d_model=8),
    ]

    def draw(r: np.random.Generator) -> Case:
        return case("random", int(r.integers(0, 300)), 2 * int(r.integers(1, 40)))

    return _fill(n, edges, rng, draw)


@generator("rotary_embedding", subject="rotary_embedding")
def gen_rotary(rng: np.random.Generator, n: int) -> list[Case]:
    x = rng.standard_normal((6, 8))
    edges = [
        case("offset left out", x),
        case("offset given", x, 5),
        case("offset as a keyword", x, offset=100),
        case("hs=2: one pair", rng.standard_normal((4, 2)), 3),
        case("T=1 far along", rng.standard_normal((1, 16)), 4000),
        case("offset as NumPy int64", x, np.int64(7)),
        case("invalid: odd hs", rng.standard_normal((3, 5))),
        case("invalid: offset < 0", x, -1),
        case("invalid: offset = np.int64(-1)", x, np.int64(-1)),
        case("integer x: a float64 result", np.arange(8).reshape(2, 4), 1),
        case("float32 x: a float64 result", x.astype(np.float32), 2),
        case("offset 2^24 + 1: positions in float64", np.ones((2, 2)), 2**24 + 1),
        case("arguments by name (x=, offset=)", x=x, offset=3),
    ]

    def draw(r: np.random.Generator) -> Case:
        t, hs = int(r.integers(1, 20)), 2 * int(r.integers(1, 9))
        return case("random", r.standard_normal((t, hs)), int(r.integers(0, 2000)))

    return _fill(n, edges, rng, draw)


@generator("kv_cache_bytes", subject="kv_cache_bytes")
def gen_kv_cache(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case("GPT-2 small, FP32", 1, 1024, 12, 768),
        case("batch 8, FP16", 8, 4096, 32, 4096, 2),
        case("zero tokens", 4, 0, 12, 768),
        case("zero batch", 0, 10, 12, 768),
        case("zero layers", 1, 10, 0, 768),
        case("zero width", 1, 10, 12, 0),
        case(
            "arguments by name",
            batch=1,
            length=1024,
            n_layer=12,
            d_model=768,
            bytes_per_value=2,
        ),
        case("NumPy int32 past 2^31", np.int32(64), np.int32(8192), np.int32(80), np.int32(8192)),
        case("bytes_per_value=3 (any integer >= 1)", 1, 1024, 12, 768, 3),
        case("a product past 2^63 (an exact int, no int64 wrap)", 65536, 65536, 65536, 16384, 2),
        case("d_model = 2^62: the bytes per token pass 2^63", 1, 1, 1, 2**62, 4),
        case(
            "NumPy int64 sizes, a product past 2^63",
            np.int64(65536),
            np.int64(65536),
            np.int64(65536),
            np.int64(16384),
        ),
        case("invalid: batch < 0", -1, 10, 12, 768),
        case("invalid: length < 0", 1, -1, 12, 768),
        case("invalid: n_layer < 0", 1, 10, -1, 768),
        case("invalid: d_model < 0", 1, 10, 12, -1),
        case("invalid: bytes_per_value = 0", 1, 10, 12, 768, 0),
    ]

    def draw(r: np.random.Generator) -> Case:
        sizes = (
            _log_int(r, 1, 256),
            _log_int(r, 1, 131072),
            _log_int(r, 1, 128),
            _log_int(r, 1, 16384),
        )
        if r.integers(0, 3) == 0:
            return case("random, default bytes", *sizes)
        return case("random", *sizes, int(r.choice([1, 2, 4, 8])))

    return _fill(n, edges, rng, draw)


def _text(r: np.random.Generator, size: int, alphabet: bytes) -> NDArray[np.uint8]:
    """Bytes drawn from a small alphabet, so pairs repeat and merges happen."""
    return np.frombuffer(alphabet, dtype=np.uint8)[r.integers(0, len(alphabet), size=size)].copy()


def _byte_rich(r: np.random.Generator, size: int, values: int) -> NDArray[np.uint8]:
    """``size`` bytes over ``values`` byte values drawn from all of 0..255 (control bytes and
    bytes past 127 included), the first ones far more frequent (a Zipf-like law): pairs
    repeat for many merges, and the counts tie between pairs whose ids lie on both sides of
    255, where ordering pairs by any key other than (left, right) shows."""
    alphabet = r.choice(256, size=values, replace=False)  # (values,)
    weights = 1.0 / np.arange(1, values + 1)
    return alphabet[r.choice(values, size=size, p=weights / weights.sum())].astype(np.uint8)


CHAPTER_LINE = "温度改 logits 的间距，不改排序。top-k 改的是支撑集。".encode()


@generator("bpe_train", subject="bpe_train")
def gen_bpe_train(rng: np.random.Generator, n: int) -> list[Case]:
    line = np.frombuffer(CHAPTER_LINE, dtype=np.uint8).copy()
    edges = [
        case("a line of the chapter (UTF-8)", line, 280),
        case("vocab_size = 256: no merge", line, 256),
        case(
            "aaaa: overlapping pairs counted", np.frombuffer(b"aaaaaaa", dtype=np.uint8).copy(), 260
        ),
        case(
            "ties in the counts: the smallest pair first",
            np.frombuffer(b"abcdabcdcdab", dtype=np.uint8).copy(),
            262,
        ),
        case("stops when no pair repeats", np.frombuffer(b"abcdefg", dtype=np.uint8).copy(), 300),
        case(
            "ties with ids past 255: (1, 257) before (2, 1)",
            np.array([1, 1, 2, 1, 2, 2, 2, 1, 2, 2, 1, 1, 1], dtype=np.uint8),
            270,
        ),
        case("every byte value, 200 merges", _byte_rich(rng, 600, 256), 456),
        case("low and high bytes, 150 merges", _byte_rich(rng, 500, 6), 406),
        case("empty text", np.zeros(0, dtype=np.uint8), 270),
        case("vocab_size as NumPy int64", line, np.int64(270)),
        case("invalid: vocab_size < 256", line, 255),
        case("arguments by name (data=, vocab_size=)", data=line, vocab_size=270),
    ]

    def draw(r: np.random.Generator) -> Case:
        if r.integers(0, 2):  # a few byte values anywhere in 0..255, and up to 150 merges
            text = _byte_rich(r, int(r.integers(0, 500)), int(r.integers(2, 9)))
            return case("random bytes, many merges", text, 256 + int(r.integers(0, 150)))
        text = _text(r, int(r.integers(0, 400)), b"ab c.de" if r.integers(0, 2) else b"abab a")
        return case("random", text, 256 + int(r.integers(0, 40)))

    return _fill(n, edges, rng, draw)


@generator("bpe_encode", subject="bpe_encode")
def gen_bpe_encode(rng: np.random.Generator, n: int) -> list[Case]:
    line = np.frombuffer(CHAPTER_LINE, dtype=np.uint8).copy()
    abab = np.frombuffer(b"abababab ab", dtype=np.uint8).copy()
    a, b = ord("a"), ord("b")
    rich = _byte_rich(rng, 600, 256)  # every byte value, the first far more frequent
    edges = [
        case("no merges", line, []),
        case("merges as tuples", abab, [(a, b), (256, 256)]),
        case("merges as lists", abab, [[a, b], [256, 256]]),
        case(
            "aaa with (a, a): left to right",
            np.frombuffer(b"aaaaa", dtype=np.uint8).copy(),
            [(a, a)],
        ),
        case("replayed in order, not longest first", abab, [(b, a), (a, b), (256, 257)]),
        case("empty text", np.zeros(0, dtype=np.uint8), [(a, b)]),
        case("every byte value, 150 merges", rich, _bpe_merges(rich, 150)),
        case("invalid: merge 0 names token 300, not made yet", abab, [(300, 1)]),
        case("invalid: merge 1 names token 257, made by merge 1 itself", abab, [(a, b), (257, a)]),
        case("invalid: a negative id in a merge", abab, [(a, -1)]),
        case(
            "a merge listed twice: the repeat, replayed in its turn, finds nothing",
            np.frombuffer(b"abab", dtype=np.uint8).copy(),
            [(a, b), (a, b)],
        ),
        case(
            "a merge listed twice, with merges of its token between",
            abab,
            [(a, b), (256, 256), (a, b), (257, 256)],
        ),
        case("arguments by name (data=, merges=)", data=abab, merges=[(a, b), (256, 256)]),
    ]

    def draw(r: np.random.Generator) -> Case:
        if r.integers(0, 2):  # a few byte values anywhere in 0..255, and up to 100 merges
            values = int(r.integers(2, 9))
            train = _byte_rich(r, int(r.integers(20, 400)), values)
            merges = _bpe_merges(train, int(r.integers(0, 100)))
            text = np.concatenate([train[: int(r.integers(0, 200))], _byte_rich(r, 50, values)])
            return case("random bytes, many merges", text, merges)
        alphabet = b"ab c.de" if r.integers(0, 2) else b"abab a"
        train = _text(r, int(r.integers(20, 300)), alphabet)
        merges = _bpe_merges(train, int(r.integers(0, 30)))
        return case("random", _text(r, int(r.integers(0, 200)), alphabet), merges)

    return _fill(n, edges, rng, draw)


def _bpe_merges(data: NDArray[np.uint8], count: int) -> list[tuple[int, int]]:
    """Merges for encode cases: the most frequent adjacent pair each time, a plain loop (any
    valid list of merges would do; these make encoding merge something)."""
    ids = [int(v) for v in data]
    merges: list[tuple[int, int]] = []
    for step in range(count):
        counts: dict[tuple[int, int], int] = {}
        for pair in itertools.pairwise(ids):
            counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        pair = min(counts, key=lambda p: (-counts[p], p))
        merges.append(pair)
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(256 + step)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return merges
