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

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from checks.measure.tokenizer import read_corpus
from checks.pack import generator
from checks.reference.tokenizer import _learn, _link
from runner.pack import Case

Array = NDArray[np.float64]


def case(en: str, zh: str, *args: Any, **kwargs: Any) -> Case:
    """One call of a generator's subject, labelled in both languages: the label a mismatch is
    reported under, recorded as given and shown in the reader's language."""
    return Case(args, kwargs, {"zh": zh, "en": en})


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
        case("chapter V=50257 T=1000", "本章 V=50257 T=1000", 50257, 1000),
        case("chapter V=50257 T=32", "本章 V=50257 T=32", 50257, 32),
        case("V=1", "V=1", 1, 1000),
        case("T=0", "T=0", 50257, 0),
        case("V=2 T=1", "V=2 T=1", 2, 1),
        case("NumPy int32", "NumPy int32", np.int32(50257), np.int32(1000)),
        case("NumPy int64", "NumPy int64", np.int64(10**6), np.int64(10**5)),
        case("V past 2^31", "V 超过 2^31", 2**40, 3),
        case("invalid V=0", "无效：V=0", 0, 3),
        case("invalid V<0", "无效：V<0", -1, 3),
        case("invalid T<0", "无效：T<0", 5, -1),
        case("invalid V=0 at T=0 (0^0 is still V < 1)", "无效：T=0 时 V=0（0^0 仍是 V < 1）", 0, 0),
        case(
            "invalid T<0 at V=1 (checked before any shortcut)",
            "无效：V=1 时 T<0（在任何捷径之前检查）",
            1,
            -1,
        ),
        case(
            "invalid: T = np.int64(-1) (a NumPy integer below 0)",
            "无效：T = np.int64(-1)（低于 0 的 NumPy 整数）",
            np.int64(10),
            np.int64(-1),
        ),
        case(
            "invalid: V = np.int32(0) (a NumPy integer below 1)",
            "无效：V = np.int32(0)（低于 1 的 NumPy 整数）",
            np.int32(0),
            5,
        ),
        case(
            "arguments by name (vocab=, length=)",
            "按参数名传参（vocab=、length=）",
            vocab=50257,
            length=1000,
        ),
        case(
            "V=2**64+1: past int64 (exact integers)",
            "V=2**64+1：超出 int64（精确整数）",
            2**64 + 1,
            3,
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        return case("random", "随机", _log_int(r, 1, 10**6), _log_int(r, 0, 10**5))

    edges += [  # from a fourth round of buggy learners (each once a false pass)
        case("V = 2**2000 (past float64): exact", "V = 2**2000（超出 float64）：精确", 2**2000, 3),
    ]
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


def _certain(shape: tuple[int, ...], where: tuple[int, ...]) -> NDArray[np.int64]:
    """An integer joint table: 1 at ``where``, 0 elsewhere (one sequence is certain)."""
    out = np.zeros(shape, dtype=np.int64)
    out[where] = 1
    return out


@generator("chain_rule_nll", subject="chain_rule_nll")
def gen_chain_rule(rng: np.random.Generator, n: int) -> list[Case]:
    j34 = _joint(rng, 3, 4, 1.0)
    j23 = _joint(rng, 2, 3, 0.3)
    edges = [
        case(
            "invalid: joint sums to 0.9 at T=1 (checked before any shortcut)",
            "无效：T=1 时 joint 之和为 0.9（在任何捷径之前检查）",
            np.array([0.3, 0.6]),
            [1],
        ),
        case("V=3 T=4 (list)", "V=3 T=4（list）", j34, [0, 2, 1, 2]),
        case(
            "tokens as NumPy int64 array", "tokens 为 NumPy int64 数组", j34, np.array([2, 2, 0, 1])
        ),
        case("tokens as a tuple", "tokens 为 tuple", j23, (1, 0, 1)),
        case("V=1: the only sequence", "V=1：唯一的序列", _joint(rng, 1, 3, 1.0), [0, 0, 0]),
        case("T=1", "T=1", _joint(rng, 5, 1, 1.0), [3]),
        case(
            "skewed joint (alpha 0.05)",
            "极偏的联合分布（alpha 0.05）",
            _joint(rng, 4, 3, 0.05),
            [3, 1, 0],
        ),
        case(
            "exact zeros: a first token of probability 0 (inf)",
            "精确 0：第一个 token 的概率为 0（inf）",
            _with_zeros(j34, (1,)),
            [1, 0, 2, 2],
        ),
        case(
            "exact zeros: a prefix of probability 0 (inf)",
            "精确 0：概率为 0 的前缀（inf）",
            _with_zeros(j34, (0, 2)),
            np.array([0, 2, 1, 1]),
        ),
        case(
            "exact zeros: the last token impossible (inf)",
            "精确 0：最后一个 token 不可能（inf）",
            _with_zeros(j23, (1, 0, 1)),
            [1, 0, 1],
        ),
        case(
            "exact zeros elsewhere, a possible sequence",
            "别处有精确 0，序列本身可能",
            _with_zeros(j34, (2, 1)),
            [0, 1, 2, 0],
        ),
        case("invalid: tokens too long", "无效：tokens 太长", j23, [1, 0, 1, 0]),
        case("invalid: tokens too short", "无效：tokens 太短", j34, [0, 1]),
        case("invalid: a negative token", "无效：负的 token", j34, [0, -1, 2, 1]),
        case("invalid: a token = V", "无效：token = V", j23, np.array([1, 2, 0])),
        case(
            "invalid: joint not (V,) * T",
            "无效：joint 不是 (V,) * T",
            rng.dirichlet(np.ones(6)).reshape(2, 3),
            [1, 2],
        ),
        case(
            "invalid: a negative probability (summing to 1)",
            "无效：含负概率（和仍为 1）",
            _uniform_minus(2, 3),
            [1, 1, 1],
        ),
        case(
            "invalid: a NaN probability",
            "无效：含 NaN 概率",
            np.where(j23 == j23.max(), math.nan, j23),
            [0, 1, 0],
        ),
        case("invalid: joint sums to 0.9", "无效：joint 之和为 0.9", j23 * 0.9, [0, 1, 0]),
        case(
            "invalid: joint sums to 1 + 5e-6",
            "无效：joint 之和为 1 + 5e-6",
            j34 * (1 + 5e-6),
            [0, 2, 1, 2],
        ),
        case(
            "invalid: joint sums to 1 - 5e-6",
            "无效：joint 之和为 1 - 5e-6",
            j34 * (1 - 5e-6),
            [0, 2, 1, 2],
        ),
        case(
            "invalid: joint sums to 1 + 1e-3",
            "无效：joint 之和为 1 + 1e-3",
            j23 * (1 + 1e-3),
            [0, 1, 0],
        ),
        case(
            "invalid: joint sums to 1 - 1e-3",
            "无效：joint 之和为 1 - 1e-3",
            j23 * (1 - 1e-3),
            [0, 1, 0],
        ),
        case(
            "invalid: joint (4, 1), not (V,) * T (its size is 2^2)",
            "无效：joint 形状 (4, 1)，不是 (V,) * T（大小是 2^2）",
            np.full((4, 1), 0.25),
            [1, 0],
        ),
        case(
            "invalid: joint (2, 1, 4), not (V,) * T (its size is 2^3)",
            "无效：joint 形状 (2, 1, 4)，不是 (V,) * T（大小是 2^3）",
            np.full((2, 1, 4), 0.125),
            [1, 0, 3],
        ),
        case(
            "joint sums to 1 + 5e-7 (within 1e-6), an impossible prefix (inf)",
            "joint 之和为 1 + 5e-7（在 1e-6 以内），前缀不可能（inf）",
            _with_zeros(j34, (0, 2)) * (1 + 5e-7),
            [0, 2, 1, 1],
        ),
        case(
            "joint sums to 1 - 5e-7 (within 1e-6), an impossible last token (inf)",
            "joint 之和为 1 - 5e-7（在 1e-6 以内），最后一个 token 不可能（inf）",
            _with_zeros(j23, (1, 0, 1)) * (1 - 5e-7),
            [1, 0, 1],
        ),
        # within 1e-6 of 1: accepted. The sequences are impossible (inf), so the value does
        # not depend on whether the joint is divided by its sum or used as it is
        case(
            "joint sums to 1 + 1e-8 (within 1e-6), an impossible prefix (inf)",
            "joint 之和为 1 + 1e-8（在 1e-6 以内），前缀不可能（inf）",
            _with_zeros(j34, (0, 2)) * (1 + 1e-8),
            [0, 2, 1, 1],
        ),
        case(
            "joint sums to 1 - 1e-8 (within 1e-6), an impossible last token (inf)",
            "joint 之和为 1 - 1e-8（在 1e-6 以内），最后一个 token 不可能（inf）",
            _with_zeros(j23, (1, 0, 1)) * (1 - 1e-8),
            [1, 0, 1],
        ),
        case(
            "arguments by name (joint=, tokens=)",
            "按参数名传参（joint=、tokens=）",
            joint=j23,
            tokens=[1, 1, 0],
        ),
        # within 1e-6 of 1 and a possible sequence: P(tokens) is the table's entry as given
        # (the empty prefix has probability 1), never the entry divided by the table's sum,
        # which differs by up to 5e-7 nats here, far beyond the claim's 1e-9
        case(
            "joint sums to 1 + 5e-7, a possible sequence: the entry as given, not divided by the sum",
            "joint 之和为 1 + 5e-7，序列可能：按表中的值计算，不除以表的和",
            j34 * (1 + 5e-7),
            [0, 2, 1, 2],
        ),
        case(
            "joint sums to 1 - 5e-7, a possible sequence: the entry as given, not divided by the sum",
            "joint 之和为 1 - 5e-7，序列可能：按表中的值计算，不除以表的和",
            j23 * (1 - 5e-7),
            [1, 1, 0],
        ),
        case(
            "float32 joint: computed in float64",
            "float32 的 joint：按 float64 计算",
            # a fixed table whose float32 marginals round 6e-8 away from the float64 ones
            _joint(np.random.default_rng(0), 4, 4, 1.0).astype(np.float32),
            [3, 1, 0, 2],
        ),
        case(
            "integer joint: one sequence certain (NLL 0)",
            "整数 joint：一个序列必然出现（NLL 为 0）",
            _certain((2, 2, 2), (1, 0, 1)),
            [1, 0, 1],
        ),
        case(
            "integer joint: another sequence impossible (inf)",
            "整数 joint：其他序列不可能（inf）",
            _certain((2, 2, 2), (1, 0, 1)),
            [1, 0, 0],
        ),
        case(
            "invalid: joint sums to 0.9 at V=1 (checked before any shortcut)",
            "无效：V=1 时 joint 之和为 0.9（在任何捷径之前检查）",
            np.full((1, 1, 1), 0.9),
            [0, 0, 0],
        ),
        case(
            "invalid: a token outside 0..V-1 at V=1 (checked before any shortcut)",
            "无效：V=1 时 token 超出 0..V-1（在任何捷径之前检查）",
            np.ones((1, 1, 1)),
            [0, 1, 0],
        ),
        case(
            "a prefix of probability 1e-13: unlikely, not impossible (a finite NLL)",
            "前缀概率为 1e-13：不太可能，但并非不可能（NLL 有限）",
            np.array([1 - 1e-13, 1e-13]),
            [1],
        ),
        case(
            "invalid: a token 1.7, not an integer (no truncating to 1)",
            "无效：token 为 1.7，不是整数（不能截成 1）",
            np.full((2, 2), 0.25),
            [1.7, 0],
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        vocab, length = int(r.integers(1, 5)), int(r.integers(1, 5))
        joint = _joint(r, vocab, length, float(r.choice([0.3, 1.0, 5.0])))
        tokens = r.integers(0, vocab, size=length)
        label = ("random", "随机")
        if vocab > 1 and r.integers(0, 3) == 0:  # some sequences, or prefixes, impossible
            zeros = r.random(joint.shape) < 0.3
            zeros.flat[int(r.integers(0, joint.size))] = False  # something stays possible
            joint = _with_zeros(joint, (zeros,))
            label = ("random with exact zeros", "随机，含精确 0")
        as_list = bool(r.integers(0, 2))
        return case(*label, joint, tokens.tolist() if as_list else tokens)

    edges += [  # from a fourth round of buggy learners (each once a false pass)
        case(
            "a subnormal joint mass 1e-310 is possible",
            "次正规的联合概率 1e-310 是可能的",
            np.array([1e-310, 1.0 - 1e-310]),
            [0],
        ),
    ]
    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "a float32 joint whose float32 sum is 1 within float32: checked in float64",
            "float32 的联合分布，其 float32 的和在 float32 精度内为 1：用 float64 检查",
            np.array([0.13455786, 0.86544114], dtype=np.float32),
            [1],
        ),
        case(
            "invalid: token 2**32 + 1 (no narrowing before the range check)",
            "无效：token 2**32 + 1（检查范围前不能缩窄）",
            np.array([0.25, 0.75]),
            [2**32 + 1],
        ),
    ]
    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case(
            "invalid: a float16 joint [0.3, 0.7] (its sum is 1.000244 in float64)",
            "无效：float16 的联合分布 [0.3, 0.7]（用 float64 求和为 1.000244）",
            np.array([0.3, 0.7], dtype=np.float16),
            [0],
        ),
    ]
    edges += [  # from a seventh round of buggy learners (each once a false pass)
        case(
            "invalid: a token of 1.0 (a float, even a whole one)",
            "无效：token 为 1.0（浮点数，即使是整数值）",
            np.array([[0.1, 0.2], [0.3, 0.4]]),
            [1.0, 0.0],
        ),
    ]
    edges += [  # from an eighth round of buggy learners (each once a false pass)
        case(
            "invalid: an entry of -1e-15 (no tolerance below 0)",
            "无效：有一项为 -1e-15（低于 0 没有容差）",
            np.array([0.5, 0.5, -1e-15]),
            [0],
        ),
    ]
    edges += [  # from a ninth round of buggy learners (each once a false pass)
        case(
            "an entry of 1 + 5e-7 (the sum is 1 within 1e-6): valid",
            "有一项为 1 + 5e-7（总和在 1e-6 之内为 1）：有效",
            np.array([1.0 + 5e-7, 0.0]),
            [0],
        ),
    ]
    edges += [  # from a sixteenth round of buggy learners (each once a false pass)
        case(
            "invalid: a token np.float32(1.7) (never cut to 1)",
            "无效：token 为 np.float32(1.7)（不能截成 1）",
            np.full((2, 2), 0.25),
            [np.float32(1.7), 0],
        ),
        case(
            "invalid: tokens True, False (a bool is not an id)",
            "无效：tokens 为 True、False（bool 不是 id）",
            np.array([[0.1, 0.2], [0.3, 0.4]]),
            [True, False],
        ),
        case(
            "invalid: tokens as a float32 array of whole values",
            "无效：tokens 为整数值的 float32 数组",
            np.array([[0.1, 0.2], [0.3, 0.4]]),
            np.array([1.0, 0.0], dtype=np.float32),
        ),
        case(
            "invalid: a 0-d joint (not (V,) * T with T >= 1)",
            "无效：0 维的联合表（不是 T >= 1 的 (V,) * T）",
            np.array(1.0),
            [],
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "tokens as a uint8 array",
            "tokens 为 uint8 数组",
            np.array([[0.1, 0.2], [0.3, 0.4]]),
            np.array([1, 0], dtype=np.uint8),
        ),
    ]
    edges += [  # from an eighteenth round of buggy learners (each once a false pass)
        case(
            "a prefix of probability 1e-50 (a float32 marginal underflows to 0): 115.13 nats",
            "概率为 1e-50 的前缀（float32 的边缘概率下溢为 0）：115.13 奈特",
            np.array([[1e-50, 0.0], [0.5, 0.5]]),
            [0, 0],
        ),
        *_same_shapes_twice(
            (np.array([[0.0, 0.0], [0.5, 0.5]]), [1, 0]),
            (np.full((2, 2), 0.25), [0, 1]),
        ),
    ]
    edges += [  # from a nineteenth round of buggy learners (each once a false pass)
        case(
            "invalid: a token np.True_ (a NumPy bool is no token: ValueError, not TypeError)",
            "无效：token 为 np.True_（NumPy 的 bool 不是 token：ValueError，不是 TypeError）",
            np.array([0.25, 0.75]),
            [np.True_],
        ),
    ]
    edges += [  # from a twentieth round of buggy learners (each once a false pass)
        case(
            "invalid: tokens [0, True] (a bool beside an int is not an id either)",
            "无效：tokens 为 [0, True]（与整数并列的 bool 也不是 id）",
            np.array([[0.1, 0.2], [0.3, 0.4]]),
            [0, True],
        ),
    ]
    return _fill(n, edges, rng, draw)


# -- stage 2 ---------------------------------------------------------------------------------
@generator("giant_mlp_parameter_log10", subject="giant_mlp_parameter_log10")
def gen_giant_mlp(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        # hunt, 2026-12-03: an argument check after a shortcut for a degenerate size
        case(
            "invalid V=0 at T=0 (checked before any shortcut)",
            "无效：T=0 时 V=0（在任何捷径之前检查）",
            0,
            0,
            5,
        ),
        case(
            "invalid T<0 at V=1 (checked before any shortcut)",
            "无效：V=1 时 T<0（在任何捷径之前检查）",
            1,
            -1,
            4096,
        ),
        case(
            "chapter V=50257 T=1000 hidden=4096",
            "本章 V=50257 T=1000 hidden=4096",
            50257,
            1000,
            4096,
        ),
        case("V=1 hidden=1", "V=1 hidden=1", 1, 5, 1),
        case("T=0", "T=0", 2, 0, 7),
        case("NumPy ints", "NumPy 整数", np.int64(50257), np.int32(32), np.int16(4096)),
        case("invalid hidden=0", "无效：hidden=0", 50257, 10, 0),
        case("invalid V=0", "无效：V=0", 0, 10, 4096),
        case("invalid T<0", "无效：T<0", 50257, -1, 4096),
        case(
            "arguments by name (vocab=, length=, hidden=)",
            "按参数名传参（vocab=、length=、hidden=）",
            vocab=50257,
            length=1000,
            hidden=4096,
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        return case(
            "random", "随机", _log_int(r, 1, 10**6), _log_int(r, 0, 10**4), _log_int(r, 1, 10**5)
        )

    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "hidden = 2**64 (past int64): exact", "hidden = 2**64（超出 int64）：精确", 2, 3, 2**64
        ),
    ]
    edges += [  # from a ninth round of buggy learners (each once a false pass)
        case(
            "hidden = 2**1100 (past any float): exact",
            "hidden = 2**1100（超出任何浮点数）：精确",
            2,
            3,
            2**1100,
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "vocab 2**64 + 1: past int64, exact",
            "vocab 为 2**64 + 1：超出 int64，精确",
            2**64 + 1,
            3,
            4096,
        ),
    ]
    return _fill(n, edges, rng, draw)


@generator("averaging_model", subject="averaging_model")
def gen_averaging(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case(
            "float16 x 1000 apart: summed at a wider precision",
            "相差 1000 的 float16 x：以更高精度求和",
            np.array([[1000.0], [0.1]], dtype=np.float16),
        ),
        case("T=1 d=1", "T=1 d=1", rng.standard_normal((1, 1))),
        case("T=1", "T=1", rng.standard_normal((1, 8))),
        case("d=1", "d=1", rng.standard_normal((16, 1))),
        case("large magnitudes", "数值很大", rng.standard_normal((12, 4)) * 1e6),
        case("long T", "很长的 T", rng.standard_normal((200, 3))),
        case("invalid: T=0", "无效：T=0", np.zeros((0, 3))),
        case("invalid: d=0", "无效：d=0", np.zeros((3, 0))),
        case("invalid: a vector", "无效：一维向量", np.zeros(5)),
        case("invalid: (B, T, d)", "无效：(B, T, d)", np.zeros((2, 3, 4))),
        case("arguments by name (x=)", "按参数名传参（x=）", x=rng.standard_normal((5, 3))),
        case(
            "float32 x: a float64 result",
            "float32 的 x：结果为 float64",
            (np.arange(12).reshape(4, 3) / 7).astype(np.float32),
        ),
        case(
            "float32 x, 300 positions: a running sum in float64",
            "float32 的 x，300 个位置：累加用 float64",
            (rng.standard_normal((300, 2)) + 3).astype(np.float32),
        ),
        case(
            "integer x: a float64 result",
            "整数 x：结果为 float64",
            np.arange(-6, 9).reshape(5, 3),
        ),
        case(
            "int64 rows of 2**62: the running sum in float64 (an int64 one wraps around)",
            "值为 2**62 的 int64 行：运行和用 float64（int64 的运行和会回绕）",
            np.array([[2**62], [2**62], [2**62]], dtype=np.int64),
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        t_len, d = int(r.integers(1, 40)), int(r.integers(1, 9))
        return case(
            "random", "随机", r.standard_normal((t_len, d)) * float(r.choice([0.1, 1.0, 30.0]))
        )

    edges += [  # from a fourth round of buggy learners (each once a false pass)
        case(
            "integer x at T=1: a float64 mean", "T=1 的整数 x：float64 的均值", np.array([[1, 2]])
        ),
    ]
    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "long double x: a float64 mean",
            "long double 的 x：float64 的均值",
            np.array([[1.0], [2.0]], dtype=np.longdouble),
        ),
    ]
    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case(
            "T = 4,097 (a larger T: x is never written)",
            "T = 4,097（更大的 T：x 从不被改写）",
            np.random.default_rng(4097).standard_normal((4097, 1)),
        ),
    ]
    edges += [  # from an eighth round of buggy learners (each once a false pass)
        case(
            "invalid: (1, 2, 3) x at T = 1 (checked before any shortcut)",
            "无效：T = 1 时 x 为 (1, 2, 3)（在任何捷径之前检查）",
            np.ones((1, 2, 3)),
        ),
    ]
    edges += [  # from a sixteenth round of buggy learners (each once a false pass)
        *_same_shapes_twice((np.arange(6.0).reshape(3, 2),), (-np.arange(6.0).reshape(3, 2),)),
    ]
    return _fill(n, edges, rng, draw)


# -- stages 3-4: parameter counts -------------------------------------------------------------
POSITIONS = ("none", "sinusoidal", "rope", "learned")


@generator("transformer_parameter_count", subject="transformer_parameter_count")
def gen_transformer_count(rng: np.random.Generator, n: int) -> list[Case]:
    gpt2 = (50257, 768, 12, 3072, 1024)
    edges = [
        case("V·d past int64 (exact ints)", "V·d 超出 int64（精确整数）", 2**40, 2**30, 1, 1, 0),
        case(
            "a total past 2^53, odd (exact ints)",
            "超过 2^53 的奇数总数（精确整数）",
            3,
            2**27 + 1,
            1,
            1,
            0,
        ),
        case("chapter GPT-2 small", "本章 GPT-2 small", 50257, 768, 12, 3072, 1000, n_head=12),
        case(
            "real GPT-2 small",
            "真实的 GPT-2 small",
            *gpt2,
            n_head=12,
            positions="learned",
            biases=True,
            layernorm=True,
        ),
        case("tied=False", "tied=False", *gpt2, n_head=12, tied=False),
        case(
            "everything on, untied",
            "全部打开，不共享",
            *gpt2,
            positions="learned",
            biases=True,
            layernorm=True,
            tied=False,
        ),
        case("n_head left out, d=100", "不给 n_head，d=100", 1000, 100, 2, 400, 64),
        case("n_head=1", "n_head=1", 1000, 100, 2, 400, 64, n_head=1),
        case("n_head=d", "n_head=d", 1000, 96, 2, 384, 64, n_head=96),
        case("n_layer=0", "n_layer=0", 50257, 768, 0, 3072, 1000, layernorm=True),
        case(
            "learned, context 0", "learned，上下文 0", 50257, 768, 12, 3072, 0, positions="learned"
        ),
        case("sinusoidal", "sinusoidal", *gpt2, positions="sinusoidal"),
        case("rope", "rope", *gpt2, positions="rope", biases=True),
        case(
            "NumPy int32 past 2^31",
            "NumPy int32，乘积超过 2^31",
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
            "NumPy int64",
            np.int64(32000),
            np.int64(4096),
            np.int64(32),
            np.int64(11008),
            np.int64(4096),
        ),
        case(
            "invalid: n_head does not divide d",
            "无效：n_head 不整除 d",
            1000,
            100,
            2,
            400,
            64,
            n_head=12,
        ),
        case("invalid: positions", "无效：positions", *gpt2, positions="alibi"),
        case("invalid: vocab < 0", "无效：vocab < 0", -1, 768, 12, 3072, 1000),
        case("invalid: d_model = 0", "无效：d_model = 0", 50257, 0, 12, 3072, 1000),
        case("invalid: n_layer < 0", "无效：n_layer < 0", 50257, 768, -1, 3072, 1000),
        case("invalid: d_ff = 0", "无效：d_ff = 0", 50257, 768, 12, 0, 1000),
        case("invalid: context_length < 0", "无效：context_length < 0", 50257, 768, 12, 3072, -1),
        case("invalid: n_head = 0", "无效：n_head = 0", 1000, 100, 2, 400, 64, n_head=0),
        case(
            'invalid: biases="no" (not a bool)',
            '无效：biases="no"（不是 bool）',
            1000,
            100,
            2,
            400,
            64,
            biases="no",
        ),
        case(
            "invalid: layernorm=1 (not a bool)",
            "无效：layernorm=1（不是 bool）",
            1000,
            100,
            2,
            400,
            64,
            layernorm=1,
        ),
        case(
            "NumPy bools are bools (biases=np.True_, tied=np.False_)",
            "NumPy 的布尔值也是 bool（biases=np.True_、tied=np.False_）",
            1000,
            100,
            2,
            400,
            64,
            biases=np.True_,
            layernorm=np.bool_(True),
            tied=np.False_,
        ),
        case(
            "invalid: tied=None (not a bool)",
            "无效：tied=None（不是 bool）",
            1000,
            100,
            2,
            400,
            64,
            tied=None,
        ),
        case(
            "invalid: tied=0 (an int, not a bool)",
            "无效：tied=0（int，不是 bool）",
            1000,
            100,
            2,
            400,
            64,
            tied=0,
        ),
        case(
            "invalid: tied=1 (an int, not a bool)",
            "无效：tied=1（int，不是 bool）",
            1000,
            100,
            2,
            400,
            64,
            tied=1,
        ),
        case(
            "invalid: biases=0 (an int, not a bool)",
            "无效：biases=0（int，不是 bool）",
            1000,
            100,
            2,
            400,
            64,
            biases=0,
        ),
        case(
            "invalid: n_head=-4 (divides d, but below 1)",
            "无效：n_head=-4（整除 d，但小于 1）",
            1000,
            100,
            2,
            400,
            64,
            n_head=-4,
        ),
        case(
            "invalid: vocab=0 (vocab >= 1)", "无效：vocab=0（vocab >= 1）", 0, 768, 12, 3072, 1024
        ),
        case(
            "invalid: positions=None (not one of the four)",
            "无效：positions=None（不是四者之一）",
            *gpt2,
            positions=None,
        ),
        case(
            'invalid: positions="Learned" (the names are lower case)',
            '无效：positions="Learned"（名字是小写）',
            *gpt2,
            positions="Learned",
        ),
        case('invalid: positions="ROPE"', '无效：positions="ROPE"', *gpt2, positions="ROPE"),
        case(
            'invalid: positions="rotary" (the name is "rope")',
            '无效：positions="rotary"（名字是 "rope"）',
            *gpt2,
            positions="rotary",
        ),
        case(
            'invalid: positions="absolute" (the name is "learned")',
            '无效：positions="absolute"（名字是 "learned"）',
            *gpt2,
            positions="absolute",
        ),
        case(
            "arguments by name",
            "按参数名传参",
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
        case(
            "invalid: d_ff=0 with no layers (checked before any shortcut)",
            "无效：没有层时 d_ff=0（在任何捷径之前检查）",
            1000,
            100,
            0,
            0,
            64,
        ),
        case(
            "invalid: n_head=12 does not divide d_model=100, with no layers",
            "无效：没有层时 n_head=12 不整除 d_model=100",
            1000,
            100,
            0,
            400,
            64,
            n_head=12,
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
        return case("random", "随机", *args, _log_int(r, 0, 200_000), **kwargs)

    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case(
            "a layer's parameters past 2**63 (d_model 2**30, d_ff 2**31)",
            "一层的参数超过 2**63（d_model 2**30，d_ff 2**31）",
            1,
            2**30,
            1,
            2**31,
            0,
        ),
        case(
            "an untied head V·d past 2**63",
            "不共享的输出头 V·d 超过 2**63",
            2**40,
            2**30,
            1,
            1,
            0,
            tied=False,
        ),
    ]
    edges += [  # from an eighth round of buggy learners (each once a false pass)
        case(
            "NumPy ints whose V·d passes 2**63: exact",
            "V·d 超过 2**63 的 NumPy 整数：精确",
            np.int64(2**40),
            np.int64(2**30),
            1,
            1,
            0,
        ),
    ]
    edges += [  # from a ninth round of buggy learners (each once a false pass)
        case(
            "d_model = 3·(2**55 + 1), n_head = 3: divides (tested in integers, not floats)",
            "d_model = 3·(2**55 + 1)，n_head = 3：整除（用整数判断，不用浮点数）",
            2,
            3 * (2**55 + 1),
            1,
            1,
            0,
            n_head=3,
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "invalid: positions ['rope'] (a list, not one of the four)",
            "无效：positions 为 ['rope']（列表，不是四个之一）",
            1000,
            100,
            2,
            400,
            64,
            positions=["rope"],
        ),
        case(
            "a learned table of 2**32 rows by 2**32: past int64, exact",
            "2**32 行、宽 2**32 的学习位置表：超出 int64，精确",
            1,
            2**32,
            0,
            1,
            2**32,
            positions="learned",
        ),
        case(
            "an FFN of 2**31 by 2**31: past int64, exact",
            "2**31 乘 2**31 的 FFN：超出 int64，精确",
            1,
            2**31,
            1,
            2**31,
            0,
        ),
    ]
    edges += [  # from a nineteenth round of buggy learners (each once a false pass)
        case(
            "biases=True, then the same call with biases=1 (refused: a cache must tell them apart)",
            "biases=True，紧接着同样的调用但 biases=1（无效：缓存必须分得清两者）",
            100,
            8,
            1,
            32,
            16,
            biases=True,
        ),
        case(
            "biases=1 right after the same call with biases=True: invalid",
            "紧接在 biases=True 的同样调用之后 biases=1：无效",
            100,
            8,
            1,
            32,
            16,
            biases=1,
        ),
        case(
            'invalid: biases="no" with n_layer = 0 (a flag is checked whatever the layers)',
            '无效：n_layer = 0 时 biases="no"（不论层数都检查开关）',
            100,
            8,
            0,
            32,
            16,
            biases="no",
        ),
    ]
    return _fill(n, edges, rng, draw)


@generator("attention_parameter_count", subject="attention_parameter_count")
def gen_attention_count(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case("invalid: d<0 (H=1 divides it)", "无效：d<0（H=1 整除它）", -768, 1),
        case(
            "d=2^32: 4d^2 = 2^66, past int64 (an exact int)",
            "d=2^32：4d^2 = 2^66，超出 int64（精确整数）",
            2**32,
            1,
        ),
        case(
            "d=2^30+1: 4d^2 past 2^53 (an exact int)",
            "d=2^30+1：4d^2 超过 2^53（精确整数）",
            2**30 + 1,
            1,
        ),
        case("chapter d=768 H=1", "本章 d=768 H=1", 768, 1),
        case("chapter d=768 H=8", "本章 d=768 H=8", 768, 8),
        case("chapter d=768 H=64", "本章 d=768 H=64", 768, 64),
        case("H=d", "H=d", 96, 96),
        case("d=1", "d=1", 1, 1),
        case("odd d, odd H", "奇数 d、奇数 H", 105, 7),
        case("NumPy int32 past 2^31", "NumPy int32，乘积超过 2^31", np.int32(65536), np.int32(128)),
        case("invalid: H does not divide d", "无效：H 不整除 d", 100, 12),
        case("invalid: H=0", "无效：H=0", 768, 0),
        case("invalid: H=-4 (divides d, but below 1)", "无效：H=-4（整除 d，但小于 1）", 768, -4),
        case("invalid: d=0", "无效：d=0", 0, 1),
        case(
            "arguments by name (d_model=, n_head=)",
            "按参数名传参（d_model=、n_head=）",
            d_model=768,
            n_head=12,
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        d = _log_int(r, 1, 20_000)
        return case("random", "随机", d, int(r.choice(_divisors(d))))

    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case("invalid: n_head np.int64(-4)", "无效：n_head 为 np.int64(-4)", 768, np.int64(-4)),
    ]
    edges += [  # from an eighth round of buggy learners (each once a false pass)
        case(
            "np.int64(2**32): 4d² exact past 2**64",
            "np.int64(2**32)：4d² 超过 2**64 仍精确",
            np.int64(2**32),
            1,
        ),
    ]
    edges += [  # from a ninth round of buggy learners (each once a false pass)
        case(
            "invalid: d_model = 2**60 + 1, n_head = 3 (tested in integers, not floats)",
            "无效：d_model = 2**60 + 1，n_head = 3（用整数判断，不用浮点数）",
            2**60 + 1,
            3,
        ),
    ]
    edges += [  # from a nineteenth round of buggy learners (each once a false pass)
        case(
            "NumPy unsigned sizes (np.uint32): integers too",
            "NumPy 无符号整数（np.uint32）的尺寸：也是整数",
            np.uint32(768),
            np.uint32(12),
        ),
    ]
    return _fill(n, edges, rng, draw)


@generator("moe_parameter_count", subject="moe_parameter_count")
def gen_moe_count(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case("invalid: E<0", "无效：E<0", 16, 64, -1),
        case(
            "E·d·d_ff past int64 (an exact int)",
            "E·d·d_ff 超出 int64（精确整数）",
            2**20,
            2**22,
            2**22,
        ),
        case(
            "a count past 2^53, odd (an exact int)",
            "超过 2^53 的奇数计数（精确整数）",
            2**27 + 1,
            2**27 + 3,
            1,
        ),
        case("beyond.moe E=1", "beyond.moe E=1", 16, 64, 1),
        case("beyond.moe E=16", "beyond.moe E=16", 16, 64, 16),
        case("NumPy int64", "NumPy int64", np.int64(4096), np.int64(14336), np.int64(8)),
        case(
            "NumPy int32 past 2^31",
            "NumPy int32，乘积超过 2^31",
            np.int32(8192),
            np.int32(28672),
            np.int32(64),
        ),
        case("invalid: E=0", "无效：E=0", 16, 64, 0),
        case("invalid: d_ff=0", "无效：d_ff=0", 16, 0, 4),
        case("invalid: d=0", "无效：d=0", 0, 64, 4),
        case(
            "arguments by name (d_model=, d_ff=, n_experts=)",
            "按参数名传参（d_model=、d_ff=、n_experts=）",
            d_model=16,
            d_ff=64,
            n_experts=8,
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        return case(
            "random", "随机", _log_int(r, 1, 8192), _log_int(r, 1, 32768), _log_int(r, 1, 256)
        )

    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "a router of 2**32 by 2**31: past int64, exact",
            "2**32 乘 2**31 的路由器：超出 int64，精确",
            2**32,
            1,
            2**31,
        ),
    ]
    edges += [  # from a nineteenth round of buggy learners (each once a false pass)
        case(
            "NumPy unsigned sizes (np.uint16): integers too",
            "NumPy 无符号整数（np.uint16）的尺寸：也是整数",
            np.uint16(16),
            np.uint16(64),
            np.uint16(4),
        ),
    ]
    return _fill(n, edges, rng, draw)


@generator("logits_memory_bytes", subject="logits_memory_bytes")
def gen_logits_memory(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case("chapter FP32", "本章 FP32", 1, 1000, 50257, 4),
        case("bytes_per_value left out (FP32)", "不给 bytes_per_value（FP32）", 1, 1500, 50257),
        case("batch 8, FP16", "batch 8，FP16", 8, 4096, 128256, 2),
        case("batch 3, FP64", "batch 3，FP64", 3, 1000, 50257, 8),
        case("batch 32, 1 byte", "batch 32，1 字节", 32, 2048, 32000, 1),
        case(
            "NumPy int32 past 2^31",
            "NumPy int32，乘积超过 2^31",
            np.int32(8),
            np.int32(4096),
            np.int32(128256),
        ),
        case(
            "NumPy int64",
            "NumPy int64",
            np.int64(16),
            np.int64(8192),
            np.int64(256000),
            np.int64(2),
        ),
        case("zero length", "长度为 0", 4, 0, 50257, 4),
        case("zero batch", "batch 为 0", 0, 1000, 50257, 4),
        case("zero vocab", "词表为 0", 1, 1000, 0),
        case(
            "bytes_per_value=3 (any integer >= 1)",
            "bytes_per_value=3（任何 >= 1 的整数）",
            1,
            1000,
            50257,
            3,
        ),
        case(
            "a product past 2^63 (an exact int, no int64 wrap)",
            "乘积超过 2^63（精确的 int，不按 int64 回绕）",
            2**21,
            2**21,
            2**21,
            2,
        ),
        case(
            "NumPy int64 sizes, a product past 2^63",
            "NumPy int64 尺寸，乘积超过 2^63",
            np.int64(2**21),
            np.int64(2**21),
            np.int64(2**21),
            np.int64(2),
        ),
        case(
            "arguments by name",
            "按参数名传参",
            batch=8,
            length=4096,
            vocab=128256,
            bytes_per_value=2,
        ),
        case("invalid: batch < 0", "无效：batch < 0", -1, 1000, 50257, 4),
        case("invalid: length < 0", "无效：length < 0", 1, -1, 50257, 4),
        case("invalid: vocab < 0", "无效：vocab < 0", 1, 1000, -1, 4),
        case("invalid: bytes_per_value=0", "无效：bytes_per_value=0", 1, 1000, 50257, 0),
        # hunt, 2026-12-04: checked before any shortcut at a size of 0 (drawn apart: the
        # random cases stay as they were)
        case(
            "invalid: length<0 at batch=0 (checked before any shortcut)",
            "无效：batch=0 时 length<0（在任何捷径之前检查）",
            0,
            -1,
            50257,
            4,
        ),
        case(
            "invalid: bytes_per_value=0 at length 0 (checked before any shortcut)",
            "无效：length 为 0 时 bytes_per_value=0（在任何捷径之前检查）",
            1,
            0,
            50257,
            0,
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        sizes = (_log_int(r, 1, 512), _log_int(r, 1, 131072), _log_int(r, 1, 262144))
        if r.integers(0, 4) == 0:
            return case("random, default bytes", "随机，默认字节数", *sizes)
        return case("random", "随机", *sizes, int(r.choice([1, 2, 4, 8])))

    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "T = 2**53 + 1: exact past float64",
            "T = 2**53 + 1：超出 float64 的精度，精确",
            3,
            2**53 + 1,
            1,
            1,
        ),
        case("bytes_per_value = 16", "bytes_per_value = 16", 1, 1000, 50257, 16),
    ]
    edges += [  # from a nineteenth round of buggy learners (each once a false pass)
        case(
            "NumPy unsigned sizes (np.uint64): integers too",
            "NumPy 无符号整数（np.uint64）的尺寸：也是整数",
            np.uint64(8),
            np.uint64(1024),
            np.uint64(50257),
        ),
    ]
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
        case("T=1", "T=1", *mlp(rng, 1, 8, 32)),
        case("d=1, d_ff=1", "d=1，d_ff=1", *mlp(rng, 5, 1, 1)),
        case("non-square, d_ff < d", "非方阵，d_ff < d", *mlp(rng, 7, 12, 5)),
        case(
            "pre-activations around 0 (where GELU forms differ)",
            "预激活在 0 附近（GELU 的不同写法在此有差别）",
            *mlp(rng, 6, 8, 32, 0.5),
        ),
        case(
            "large pre-activations (GELU saturates)",
            "预激活很大（GELU 饱和）",
            *mlp(rng, 6, 8, 16, 40.0),
        ),
        case(
            "invalid: w_in does not match x",
            "无效：w_in 与 x 不匹配",
            x,
            _weights(rng, 5, 10),
            w_out,
        ),
        case(
            "invalid: w_out does not match w_in",
            "无效：w_out 与 w_in 不匹配",
            x,
            w_in,
            _weights(rng, 9, 6),
        ),
        case(
            "arguments by name (x=, w_in=, w_out=)",
            "按参数名传参（x=、w_in=、w_out=）",
            x=x,
            w_in=w_in,
            w_out=w_out,
        ),
        case(
            "float32 inputs: a float64 result",
            "float32 输入：结果为 float64",
            x.astype(np.float32),
            w_in.astype(np.float32),
            w_out.astype(np.float32),
        ),
        case(
            "integer x, float weights: a float64 result",
            "整数 x、浮点权重：结果为 float64",
            np.arange(-12, 12).reshape(4, 6),
            w_in,
            w_out,
        ),
        case(
            "d_out != d: w_out of shape (d_ff, 2) for d = 4",
            "d_out != d：d = 4 时 w_out 形状为 (d_ff, 2)",
            *_edge_mlp_dout(),
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        t, d, d_ff = int(r.integers(1, 13)), int(r.integers(1, 11)), int(r.integers(1, 41))
        return case("random", "随机", *mlp(r, t, d, d_ff, float(r.choice([0.3, 1.0, 3.0]))))

    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "float16 x and weights: computed in float64",
            "float16 的 x 与权重：在 float64 中计算",
            *(
                np.random.default_rng(s).standard_normal(shape).astype(np.float16)
                for s, shape in ((23, (3, 4)), (24, (4, 8)), (25, (8, 4)))
            ),
        ),
    ]
    edges += [  # from a seventh round of buggy learners (each once a false pass)
        case(
            "long double x: a float64 result",
            "long double 的 x：结果为 float64",
            np.ones((2, 3), dtype=np.longdouble),
            np.ones((3, 4)),
            np.ones((4, 3)),
        ),
    ]
    edges += [  # from a sixteenth round of buggy learners (each once a false pass)
        case(
            "invalid: a one-dimensional x (3,)",
            "无效：一维的 x (3,)",
            np.ones(3),
            np.ones((3, 4)),
            np.ones((4, 2)),
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "int8 x and weights: products past int8 computed in float64",
            "int8 的 x 与权重：超出 int8 的乘积在 float64 中计算",
            np.array([[100, 100]], dtype=np.int8),
            np.array([[1], [1]], dtype=np.int8),
            np.array([[1]], dtype=np.int8),
        ),
        case(
            "invalid: x of shape (2, 3, 4) (leading axes)",
            "无效：形状为 (2, 3, 4) 的 x（多出前导轴）",
            np.ones((2, 3, 4)),
            np.ones((4, 5)) / 4,
            np.ones((5, 2)),
        ),
    ]
    edges += [  # from a twenty-third round of buggy learners (each once a false pass)
        case(
            "invalid: w_in of shape (3, 2) for d = 2 (no (out, in) layout transposed to fit)",
            "无效：d = 2 时形状为 (3, 2) 的 w_in（不把 (out, in) 布局转置来凑形状）",
            np.ones((1, 2)),
            np.ones((3, 2)),
            np.ones((3, 1)),
        ),
    ]
    return _fill(n, edges, rng, draw)


@generator("causal_masked_attention", subject="causal_masked_attention")
def gen_causal_mask(rng: np.random.Generator, n: int) -> list[Case]:
    t = 6
    trap = np.full((t, t), 1e4)  # the future scores +1e4 ...
    trap[np.tril_indices(t)] = -1e4  # ... the visible ones -1e4: a -1e4 mask leaves them tied
    edges = [
        case("T=1", "T=1", rng.standard_normal((1, 1))),
        case("T=2", "T=2", rng.standard_normal((2, 2)) * 3),
        case("heads (H, T, T)", "多头 (H, T, T)", rng.standard_normal((4, 7, 7)) * 3),
        case(
            "batch and heads (B, H, T, T)",
            "批和多头 (B, H, T, T)",
            rng.standard_normal((2, 3, 5, 5)) * 3,
        ),
        case(
            "scores of ±1e3: exp overflows without the max",
            "分数 ±1e3：不减最大值 exp 会溢出",
            rng.uniform(-1e3, 1e3, (8, 8)),
        ),
        case("scores of ±1e4", "分数 ±1e4", rng.uniform(-1e4, 1e4, (8, 8))),
        case("visible -1e4, future +1e4", "可见位置 -1e4，未来位置 +1e4", trap),
        case("scores of ±1e300", "分数 ±1e300", rng.uniform(-1e300, 1e300, (5, 5))),
        case(
            "every score far below 0 (exp underflows without the max)",
            "所有分数远小于 0（不减最大值 exp 会下溢）",
            rng.uniform(-3e3, -1e3, (7, 7)),
        ),
        case(
            "heads at very different scales",
            "各头的量级相差悬殊",
            rng.standard_normal((3, 6, 6)) * np.array([1.0, 1e3, -1e3])[:, None, None]
            - np.array([0.0, 0.0, 2e3])[:, None, None],
        ),
        case("equal scores", "分数全相等", np.zeros((6, 6))),
        case("invalid: not square", "无效：不是方阵", rng.standard_normal((3, 4))),
        case("invalid: a vector", "无效：一维向量", rng.standard_normal(4)),
        case("invalid: T=0", "无效：T=0", np.zeros((0, 0))),
        case(
            "arguments by name (scores=)",
            "按参数名传参（scores=）",
            scores=rng.standard_normal((5, 5)),
        ),
        case(
            "float32 scores: float64 weights",
            "float32 分数：float64 权重",
            (np.arange(9).reshape(3, 3) / 4).astype(np.float32),
        ),
        case(
            "every score at finfo(float64).min: the future still gets 0",
            "所有分数都是 finfo(float64).min：未来仍得 0",
            np.full((3, 3), np.finfo(np.float64).min),
        ),
        case(
            "heads with visible scores at finfo(float64).min",
            "多头，可见分数为 finfo(float64).min",
            np.where(np.eye(4, dtype=bool), np.finfo(np.float64).min, -1.0)[None]
            * np.ones((2, 1, 1)),
        ),
        case(
            "float32 heads (H, T, T): the softmax in float64",
            "float32 的多头 (H, T, T)：softmax 用 float64",
            (rng.standard_normal((3, 6, 6)) * 3).astype(np.float32),
        ),
        case(
            "integer scores: float64 weights",
            "整数分数：float64 权重",
            rng.integers(-5, 6, size=(5, 5)),
        ),
        case(
            "integer scores 1000 apart: the max is subtracted for ints too",
            "相差 1000 的整数分数：整数也要减去最大值",
            np.array([[1000, 0], [1000, 1000]]),
        ),
        case(
            "float16 scores (the weights come back as float64)",
            "float16 的分数（权重以 float64 返回）",
            np.array([[0.0, 0.0], [0.0, 0.001]], dtype=np.float16),
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        t_len = int(r.integers(1, 13))
        lead = [(), (int(r.integers(1, 4)),)][int(r.integers(0, 2))]
        scale = float(r.choice([1.0, 3.0, 30.0]))
        return case("random", "随机", r.standard_normal((*lead, t_len, t_len)) * scale)

    edges += [  # from a fourth round of buggy learners (each once a false pass)
        case(
            "integer scores at T=1: float64 [[1.0]]",
            "T=1 的整数分数：float64 [[1.0]]",
            np.array([[3]]),
        ),
    ]
    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "long double scores: float64 weights",
            "long double 的分数：float64 的权重",
            np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.longdouble),
        ),
    ]
    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case(
            "T = 40 (a larger T: the scores are never written)",
            "T = 40（更大的 T：分数从不被改写）",
            np.random.default_rng(40).standard_normal((40, 40)),
        ),
    ]
    edges += [  # from an eighth round of buggy learners (each once a false pass)
        case(
            "invalid: (3, 1) scores, not square (checked before any shortcut)",
            "无效：(3, 1) 的分数不是方阵（在任何捷径之前检查）",
            np.ones((3, 1)),
        ),
    ]
    edges += [  # from a sixteenth round of buggy learners (each once a false pass)
        case(
            "a batch of 0 (0, 3, 3) score matrices: an empty result, not an error",
            "0 个 (3, 3) 分数矩阵的批 (0, 3, 3)：空结果，不是错误",
            np.zeros((0, 3, 3)),
        ),
    ]
    edges += [  # from an eighteenth round of buggy learners (each once a false pass)
        case(
            "scores of (2, 300, 300): weights past 1 MiB (a result kept in a buffer only for "
            "large inputs is called again at once)",
            "(2, 300, 300) 的分数：权重超过 1 MiB（只对大输入才放进缓冲区的结果会紧接着再调用一次）",
            np.random.default_rng(1818).normal(size=(2, 300, 300)),
        ),
    ]
    edges += [  # from a twenty-first round of buggy learners (each once a false pass)
        case(
            "five axes (1, 2, 2, 3, 3)",
            "五个维度 (1, 2, 2, 3, 3)",
            np.random.default_rng(5).standard_normal((1, 2, 2, 3, 3)),
        ),
    ]
    edges += [  # from a twenty-second round of buggy learners (each once a false pass)
        *_reshaped(
            (np.arange(16.0).reshape(4, 4) / 4,),
            (np.arange(16.0).reshape(2, 2, 2, 2) / 4,),
        ),
    ]
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


def _mha_extended() -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """x of 3 rows, then the same rows and one more, with other weights: a cache of keys
    and values kept for a prefix of x, keyed by x alone, answers the second with the first
    call's weights."""
    first = _mha(np.random.default_rng(211), 3, 8, 2, 4, 8)
    x, *weights, n_head = _mha(np.random.default_rng(212), 4, 8, 2, 4, 8)
    return first, (np.concatenate([first[0], x[3:]]), *weights, n_head)


@generator("multi_head_attention", subject="multi_head_attention")
def gen_mha(rng: np.random.Generator, n: int) -> list[Case]:
    x, w_q, w_k, w_v, w_o, _ = _mha(rng, 5, 8, 2, 4, 8)
    edges = [
        case("T=1", "T=1", *_mha(rng, 1, 8, 2, 4, 8)),
        case("H=1", "H=1", *_mha(rng, 6, 8, 1, 8, 8)),
        case("H=W (head size 1)", "H=W（每头宽 1）", *_mha(rng, 6, 8, 8, 1, 8)),
        case("H=2, head size 4, W=d", "H=2，每头宽 4，W=d", *_mha(rng, 7, 8, 2, 4, 8)),
        case("H=3, W=12 != d=8, d_out=5", "H=3，W=12 != d=8，d_out=5", *_mha(rng, 6, 8, 3, 4, 5)),
        case("H=4, W=8 != d=16", "H=4，W=8 != d=16", *_mha(rng, 5, 16, 4, 2, 16)),
        case(
            "large inputs (sharp softmax)",
            "输入很大（softmax 很尖）",
            *_mha(rng, 6, 8, 2, 4, 8, 8.0),
        ),
        case(
            "scores past 1e3 (exp overflows without the max)",
            "分数超过 1e3（不减最大值 exp 会溢出）",
            *_mha_extreme(rng, 40.0, 1.0),
        ),
        case(
            "every score far below 0 (exp underflows without the max)",
            "所有分数远小于 0（不减最大值 exp 会下溢）",
            *_mha_extreme(rng, 40.0, -1.0),
        ),
        case("n_head as NumPy int64", "n_head 为 NumPy int64", x, w_q, w_k, w_v, w_o, np.int64(4)),
        case(
            "invalid: n_head does not divide W", "无效：n_head 不整除 W", x, w_q, w_k, w_v, w_o, 3
        ),
        case("invalid: n_head=0", "无效：n_head=0", x, w_q, w_k, w_v, w_o, 0),
        case(
            "invalid: w_q has d+1 rows",
            "无效：w_q 有 d+1 行",
            x,
            _weights(rng, 9, 8),
            w_k,
            w_v,
            w_o,
            2,
        ),
        case(
            "invalid: w_k of another width",
            "无效：w_k 宽度不同",
            x,
            w_q,
            _weights(rng, 8, 6),
            w_v,
            w_o,
            2,
        ),
        case(
            "invalid: w_o without W rows",
            "无效：w_o 不是 W 行",
            x,
            w_q,
            w_k,
            w_v,
            _weights(rng, 6, 8),
            2,
        ),
        case(
            "arguments by name",
            "按参数名传参",
            x=x,
            w_q=w_q,
            w_k=w_k,
            w_v=w_v,
            w_o=w_o,
            n_head=2,
        ),
        case(
            "float32 inputs: projections at float64 precision",
            "float32 输入：投影按 float64 精度",
            *(a.astype(np.float32) for a in (x, w_q, w_k, w_v, w_o)),
            2,
        ),
        case(
            "integer x, float weights: every step in float64",
            "整数 x、浮点权重：每一步都用 float64",
            rng.integers(-3, 4, size=(5, 8)),
            w_q,
            w_k,
            w_v,
            w_o,
            2,
        ),
        case(
            "invalid: n_head=3 does not divide W=8, at T=1 (checked before any shortcut)",
            "无效：T=1 时 n_head=3 不整除 W=8（在任何捷径之前检查）",
            *_mha(np.random.default_rng(20261204), 1, 8, 2, 4, 8)[:5],
            3,
        ),
        case(
            "invalid: n_head=0 at T=1 (checked before any shortcut)",
            "无效：T=1 时 n_head=0（在任何捷径之前检查）",
            *_mha(np.random.default_rng(20261205), 1, 8, 2, 4, 8)[:5],
            0,
        ),
        case(
            "invalid: w_v of another width than w_q and w_k",
            "无效：w_v 的宽度与 w_q、w_k 不同",
            *_edge_mha_wv(),
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        n_head, hs = int(r.integers(1, 5)), int(r.integers(1, 6))
        t, d, d_out = int(r.integers(1, 10)), int(r.integers(1, 13)), int(r.integers(1, 9))
        return case(
            "random", "随机", *_mha(r, t, d, n_head, hs, d_out, float(r.choice([1.0, 3.0])))
        )

    edges += [  # from a fourth round of buggy learners (each once a false pass)
        case(
            "scores of ±1e4 (H=1): an additive −1e4 mask would let the future in",
            "±1e4 的分数（H=1）：加性 −1e4 掩码会让未来漏进来",
            np.array([[100.0], [-100.0]]),
            np.ones((1, 1)),
            -np.ones((1, 1)),
            np.ones((1, 1)),
            np.ones((1, 1)),
            1,
        ),
        case(
            "scores of ±1e10 (H=1): an additive −1e9 mask would let the future in",
            "±1e10 的分数（H=1）：加性 −1e9 掩码会让未来漏进来",
            np.array([[1e5], [-1e5]]),
            np.ones((1, 1)),
            -np.ones((1, 1)),
            np.ones((1, 1)),
            np.ones((1, 1)),
            1,
        ),
        case(
            "a visible score at the most negative float (the future is -inf, not finfo.min)",
            "可见分数等于最小的浮点数（未来是 -inf，不是 finfo.min）",
            np.array([[1.0], [0.5]]),
            np.full((1, 1), np.finfo(np.float64).max),
            -np.ones((1, 1)),
            np.ones((1, 1)),
            np.ones((1, 1)),
            1,
        ),
    ]
    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "float16 x and weights (H=2): computed in float64",
            "float16 的 x 与权重（H=2）：在 float64 中计算",
            *(
                np.random.default_rng(s).standard_normal(shape).astype(np.float16)
                for s, shape in (
                    (26, (4, 4)),
                    (27, (4, 4)),
                    (28, (4, 4)),
                    (29, (4, 4)),
                    (30, (4, 4)),
                )
            ),
            2,
        ),
    ]
    edges += [  # from an eighth round of buggy learners (each once a false pass)
        case(
            "long double x, float64 weights: a float64 result",
            "long double 的 x、float64 的权重：结果为 float64",
            *(
                a.astype(np.longdouble) if i == 0 else a
                for i, a in enumerate(_mha(np.random.default_rng(31), 3, 4, 2, 2, 4))
            ),
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "int8 x and weights: products past int8 computed in float64",
            "int8 的 x 与权重：超出 int8 的乘积在 float64 中计算",
            *(np.array(a, dtype=np.int8) for a in ([[100], [100]], [[2]], [[2]], [[2]], [[1]])),
            1,
        ),
        case(
            "invalid: x of shape (4,)",
            "无效：形状为 (4,) 的 x",
            np.arange(4.0),
            *(np.eye(4) for _ in range(4)),
            2,
        ),
    ]
    edges += [  # from a twentieth round of buggy learners (each once a false pass)
        case(
            "T = 40: queries past a block of 32 still see every earlier key",
            "T = 40：第 32 个以后的查询仍看得到之前的每个键",
            *_mha(np.random.default_rng(40), 40, 8, 2, 4, 8),
        ),
    ]
    edges += [  # from a twenty-first round of buggy learners (each once a false pass)
        *_extended(*_mha_extended()),
        case(
            "T = 264: every earlier key seen (no window of 256)",
            "T = 264：看得到之前的每个键（没有 256 的窗口）",
            *_mha(np.random.default_rng(264), 264, 4, 1, 4, 4),
        ),
    ]
    edges += [  # from a twenty-fifth round of buggy learners (each once a false pass)
        case(
            "T=1, float32 x and weights: projections at float64 precision",
            "T=1，float32 的 x 与权重：投影按 float64 精度",
            *(
                a.astype(np.float32) if isinstance(a, np.ndarray) else a
                for a in _mha(np.random.default_rng(2503), 1, 8, 2, 4, 8)
            ),
        ),
    ]
    return _fill(n, edges, rng, draw)


# -- stage 6: sampling --------------------------------------------------------------------------
@generator("softmax_temperature", subject="softmax_temperature")
def gen_softmax_temperature(rng: np.random.Generator, n: int) -> list[Case]:
    chapter = np.array([2.0, 1.0, -1.0])
    z16 = (rng.standard_normal(12) * 3).astype(np.float16)
    edges = [
        case(
            "logits 1e-6 apart at T = 1e-4: not yet greedy",
            "T = 1e-4 时相差 1e-6 的 logits：尚非贪心",
            np.array([0.0, 1e-6]),
            1e-4,
        ),
        # hunt, 2026-12-03: an argument check after a shortcut, integer and bool logits
        case(
            "invalid: T=0 at V=1 (checked before any shortcut)",
            "无效：V=1 时 T=0（在任何捷径之前检查）",
            np.array([2.0]),
            0.0,
        ),
        case(
            "integer logits [1000, 0]: the max is subtracted for ints too",
            "整数 logits [1000, 0]：整数也要减去最大值",
            np.array([1000, 0]),
            1.0,
        ),
        case(
            "bool logits (False < True)",
            "bool 型 logits（False < True）",
            np.array([False, True, True]),
            1.0,
        ),
        *(case(f"chapter T={t:g}", f"本章 T={t:g}", chapter, t) for t in (0.1, 1.0, 10.0, 1000.0)),
        case("V=1", "V=1", np.array([0.3]), 0.7),
        case("ties in the logits", "logits 中有并列", np.array([1.0, 3.0, 3.0, -2.0, 1.0]), 0.5),
        case(
            "integer logits (float64 out)",
            "整数 logits（输出 float64）",
            np.array([3, 1, 4, 1, 5]),
            2.0,
        ),
        case("integer T", "整数 T", chapter, 2),
        case(
            "float32 logits stay float32",
            "float32 logits 仍为 float32",
            (rng.standard_normal(10) * 3).astype(np.float32),
            0.7,
        ),
        case("float16 logits stay float16", "float16 logits 仍为 float16", z16, 1.5),
        case(
            "float16 at T=1e-5 (dividing first overflows)",
            "float16，T=1e-5（先除会溢出）",
            z16,
            1e-5,
        ),
        case(
            "float16 at T=1e-8 (T itself is 0 in float16)",
            "float16，T=1e-8（T 本身在 float16 中是 0）",
            z16,
            1e-8,
        ),
        case(
            "float32 at T=1e-3, logits ~100",
            "float32，T=1e-3，logits 约 100",
            (rng.standard_normal(8) * 100).astype(np.float32),
            1e-3,
        ),
        case(
            "float64 logits ±1e4 (exp overflows without the max)",
            "float64 logits ±1e4（不减最大值 exp 会溢出）",
            rng.uniform(-1e4, 1e4, 16),
            1.0,
        ),
        case("float64 at T=1e-300", "float64，T=1e-300", rng.standard_normal(6), 1e-300),
        case(
            "a batch (B, V): softmax over the last axis",
            "一批 (B, V)：沿最后一轴做 softmax",
            rng.standard_normal((3, 7)) * 2,
            0.8,
        ),
        case(
            "(B, T, V): softmax over the last axis",
            "(B, T, V)：沿最后一轴做 softmax",
            rng.standard_normal((2, 3, 4)) * 2,
            1.3,
        ),
        case(
            "(B, T, V) with V = T: the last axis",
            "(B, T, V) 且 V = T：最后一轴",
            rng.standard_normal((2, 5, 5)) * 2,
            0.6,
        ),
        case(
            "a batch whose rows lie far apart ([0, 0] and [−1000, −1001])",
            "各行相距很远的一批（[0, 0] 与 [−1000, −1001]）",
            np.array([[0.0, 0.0], [-1000.0, -1001.0]]),
            1.0,
        ),
        case(
            "a batch, rows offset by ±1e3", "一批，各行偏移 ±1e3", _far_rows(rng, np.float64), 1.0
        ),
        case(
            "a float32 batch, rows offset by ±1e3",
            "float32 的一批，各行偏移 ±1e3",
            _far_rows(rng, np.float32),
            2.0,
        ),
        case(
            "a batch, rows offset by ±10 at T=0.01",
            "一批，各行偏移 ±10，T=0.01",
            _far_rows(rng, np.float64) / 100,
            0.01,
        ),
        case("invalid: T=0", "无效：T=0", chapter, 0.0),
        case("invalid: T<0", "无效：T<0", chapter, -1.0),
        case("invalid: T=NaN", "无效：T=NaN", chapter, math.nan),
        case("invalid: T=inf", "无效：T=inf", chapter, math.inf),
        case("invalid: a NaN logit", "无效：含 NaN 的 logit", np.array([1.0, math.nan, 0.0]), 1.0),
        case(
            "invalid: an infinite logit",
            "无效：含无穷大的 logit",
            np.array([1.0, math.inf, 0.0]),
            1.0,
        ),
        case(
            "invalid: +inf and -inf logits (their sum is NaN)",
            "无效：+inf 与 -inf 的 logits（其和为 NaN）",
            np.array([math.inf, -math.inf, 0.0]),
            1.0,
        ),
        case(
            "invalid: a -inf logit", "无效：含 -inf 的 logit", np.array([1.0, -math.inf, 0.0]), 1.0
        ),
        case(
            "logits 1e308, 1e308, 0: finite, their sum overflows",
            "logits 1e308、1e308、0：有限，其和溢出",
            np.array([1e308, 1e308, 0.0]),
            1.0,
        ),
        case(
            "uint8 logits: float64, no wrap-around",
            "uint8 logits：float64，不回绕",
            np.array([3, 1, 4], dtype=np.uint8),
            1.0,
        ),
        case("invalid: no logits", "无效：没有 logits", np.zeros(0), 1.0),
        case(
            "arguments by name (logits=, temperature=)",
            "按参数名传参（logits=、temperature=）",
            logits=chapter,
            temperature=0.5,
        ),
        case(
            "invalid: a NaN logit at V=1 (checked before any shortcut)",
            "无效：V=1 时 logit 为 NaN（在任何捷径之前检查）",
            np.array([np.nan]),
            1.0,
        ),
        case(
            "invalid: an inf logit in a batch of V=1 rows (checked before any shortcut)",
            "无效：V=1 的一批行里有 inf（在任何捷径之前检查）",
            np.array([[np.inf], [0.0]]),
            1.0,
        ),
        case(
            "float32 at T=1e-50 (0 in float32: one-hot, never NaN)",
            "float32，T=1e-50（在 float32 里为 0：one-hot，绝不是 NaN）",
            np.array([2.0, 1.0, -1.0], dtype=np.float32),
            1e-50,
        ),
        case(
            "logits 1e-9 apart at T = 1e-10: T is used as it is (no floor such as 1e-8)",
            "T = 1e-10 时相差 1e-9 的 logits：T 按原值使用（没有 1e-8 之类的下限）",
            np.array([0.0, 1e-9]),
            1e-10,
        ),
        case(
            "longdouble logits: the output stays longdouble",
            "longdouble 的 logits：输出保持 longdouble",
            np.array([2.0, 1.0, -1.0], dtype=np.longdouble),
            0.5,
        ),
    ]
    dtypes = (np.float64, np.float64, np.float32, np.float16)

    def draw(r: np.random.Generator) -> Case:
        dtype = dtypes[int(r.integers(0, len(dtypes)))]
        v = int(r.integers(1, 65))
        z = (r.standard_normal(v) * float(r.choice([1.0, 5.0, 30.0]))).astype(dtype)
        low = -3.0 if dtype is np.float64 else -1.0
        t = float(10 ** r.uniform(low, 3.0))
        return case(f"random {np.dtype(dtype).name}", f"随机 {np.dtype(dtype).name}", z, t)

    edges += [  # from a fourth round of buggy learners (each once a false pass)
        case(
            "int8 logits [-100, 100]: cast before subtracting (int8 would wrap)",
            "int8 的 logits [-100, 100]：先转换再相减（int8 会回绕）",
            np.array([-100, 100], dtype=np.int8),
            1.0,
        ),
        case(
            "int16 logits [-30000, 30000] at T=1000",
            "int16 的 logits [-30000, 30000]，T=1000",
            np.array([-30000, 30000, 0], dtype=np.int16),
            1000.0,
        ),
        case(
            "a subnormal T = 1e-310 (1/T overflows; dividing does not)",
            "次正规数 T = 1e-310（1/T 溢出，除法不会）",
            np.array([2.0, 1.0, -1.0]),
            1e-310,
        ),
        case(
            "T as np.float32(0.5)",
            "T 为 np.float32(0.5)",
            np.array([2.0, 1.0, -1.0]),
            np.float32(0.5),
        ),
    ]
    edges += [  # from an eighth round of buggy learners (each once a false pass)
        case(
            "tied logits at T = 1e-20: the tie keeps equal shares",
            "T = 1e-20 时并列的 logits：并列者平分",
            np.array([3.0, 3.0, 1.0]),
            1e-20,
        ),
    ]
    edges += [  # from a ninth round of buggy learners (each once a false pass)
        case(
            "logits [1e308, -1e308]: finite, though their difference overflows",
            "logits [1e308, -1e308]：有限，尽管两者之差溢出",
            np.array([1e308, -1e308]),
            1.0,
        ),
        case(
            "logits [0, -800] at T = 100: the tail is back (divide the logits, not the probs)",
            "T = 100 时的 logits [0, -800]：尾项回来了（除的是 logits，不是概率）",
            np.array([0.0, -800.0]),
            100.0,
        ),
    ]
    edges += [  # from a sixteenth round of buggy learners (each once a false pass)
        case(
            "invalid: a 0-d logits array (no vocabulary axis)",
            "无效：0 维的 logits 数组（没有词表维）",
            np.array(3.0),
            1.0,
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "float16 logits at T = 1e-50: divided at float64 precision, no NaN",
            "T = 1e-50 时的 float16 logits：按 float64 精度相除，没有 NaN",
            np.array([2.0, 1.0, -1.0], dtype=np.float16),
            1e-50,
        ),
        case(
            "a NumPy integer temperature np.int64(2)",
            "NumPy 整数温度 np.int64(2)",
            np.array([2.0, 1.0, -1.0]),
            np.int64(2),
        ),
    ]
    edges += [  # from a nineteenth round of buggy learners (each once a false pass)
        case(
            "a (1, V) batch of one: the result keeps its shape",
            "只有一行的 (1, V) 批：结果保持形状",
            np.array([[1.0, 2.0, 3.0]]),
            1.0,
        ),
    ]
    edges += [  # from a twentieth round of buggy learners (each once a false pass)
        case(
            "(B, T, V) logits whose rows lie 2,000 apart: the max row by row",
            "(B, T, V) 的 logits，各行相距 2,000：按行减最大值",
            np.array([[[0.0, 1.0, 2.0], [-2000.0, -1999.0, -1998.0]]]),
            1.0,
        ),
    ]
    edges += [  # from a twenty-first round of buggy learners (each once a false pass)
        case(
            "four axes (2, 2, 3, 5)",
            "四个维度 (2, 2, 3, 5)",
            np.random.default_rng(4).standard_normal((2, 2, 3, 5)),
            0.7,
        ),
        case(
            "float32 (B, T, V) logits: the result stays float32",
            "float32 的 (B, T, V) logits：结果仍是 float32",
            np.random.default_rng(3).standard_normal((2, 3, 4)).astype(np.float32),
            0.7,
        ),
        case(
            "float32 logits with V = 1: float32 ones",
            "V = 1 的 float32 logits：float32 的 1",
            np.array([[0.5], [2.0]], dtype=np.float32),
            1.0,
        ),
    ]
    edges += [  # from a twenty-second round of buggy learners (each once a false pass)
        *_reshaped((np.arange(4.0), 1.0), (np.arange(4.0).reshape(2, 2), 1.0)),
    ]
    edges += [  # from a twenty-sixth round of buggy learners (each once a false pass)
        case(
            "logits 1e-12 apart at T = 1e-13: [4.54e-5, 0.99995], no one-hot below a cut",
            "T = 1e-13 时相差 1e-12 的 logits：[4.54e-5, 0.99995]，不在某个下限以下改成 one-hot",
            np.array([0.0, 1e-12]),
            1e-13,
        ),
        case(
            "logits 1e-12 apart at T = 1e-14: T is used as it is (no floor such as 1e-12)",
            "T = 1e-14 时相差 1e-12 的 logits：T 按原值使用（没有 1e-12 之类的下限）",
            np.array([0.0, 1e-12]),
            1e-14,
        ),
    ]
    edges += [  # from a twenty-seventh round of buggy learners (each once a false pass)
        case(
            "V=1, int64 logits: float64 [1.0]",
            "V=1，int64 logits：float64 的 [1.0]",
            np.array([7]),
            1.0,
        ),
        case(
            "V=1, bool logits: float64 [1.0]",
            "V=1，bool logits：float64 的 [1.0]",
            np.array([True]),
            0.5,
        ),
    ]
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
        case(
            "invalid: a negative probability at k = V (checked before any shortcut)",
            "无效：k = V 时出现负概率（在任何捷径之前检查）",
            np.array([0.7, -0.1, 0.4]),
            3,
        ),
        case(
            "uint8 probs, k=1 (no negation in uint8)",
            "uint8 的 probs，k=1（不在 uint8 中取负）",
            np.array([0, 5, 3], dtype=np.uint8),
            1,
        ),
        case("chapter k=2", "本章 k=2", chapter, 2),
        case("k=1", "k=1", chapter, 1),
        case("k=V", "k=V", chapter, 5),
        case("V=1", "V=1", np.array([1.0]), 1),
        case("k as NumPy int64", "k 为 NumPy int64", chapter, np.int64(3)),
        case(
            "all equal: keep the lowest indices", "全部相等：保留下标最小的", np.full(6, 1 / 6), 4
        ),
        case("ties at the boundary", "边界上有并列", np.array([0.1, 0.3, 0.2, 0.2, 0.2]), 2),
        case("ties at the boundary, V=40", "边界上有并列，V=40", _tied_probs(rng, 40, 9), 9),
        case("ties at the boundary, V=100", "边界上有并列，V=100", _tied_probs(rng, 100, 30), 30),
        case("exact zeros among the kept", "保留的项中有精确 0", np.array([0.5, 0.0, 0.5, 0.0]), 3),
        case("invalid: k=0", "无效：k=0", chapter, 0),
        case("invalid: k > V", "无效：k > V", chapter, 6),
        case("invalid: a NaN probability", "无效：含 NaN 概率", np.array([0.5, math.nan, 0.5]), 1),
        case(
            "invalid: an infinite probability",
            "无效：含无穷大的概率",
            np.array([0.5, math.inf, 0.5]),
            1,
        ),
        case("invalid: a negative probability", "无效：含负概率", np.array([0.7, -0.1, 0.4]), 2),
        case("invalid: no probabilities", "无效：没有概率", np.zeros(0), 1),
        case(
            "invalid: probs (B, V), not a vector",
            "无效：probs 为 (B, V)，不是向量",
            np.full((2, 3), 1 / 3),
            1,
        ),
        case(
            "invalid: the kept probabilities sum to 0", "无效：保留的概率之和为 0", np.zeros(3), 2
        ),
        case("invalid: k = np.int64(-1)", "无效：k = np.int64(-1)", chapter, np.int64(-1)),
        case(
            "invalid: +inf and -inf probabilities",
            "无效：+inf 与 -inf 的概率",
            np.array([math.inf, -math.inf, 0.0]),
            1,
        ),
        case(
            "probs 1e308, 1e308, 0 at k=1: finite, their sum overflows",
            "probs 1e308、1e308、0，k=1：有限，其和溢出",
            np.array([1e308, 1e308, 0.0]),
            1,
        ),
        case(
            "probs 1e308, 1e308, 1 at k=2: the kept sum overflows",
            "probs 1e308、1e308、1，k=2：保留项之和溢出",
            np.array([1e308, 1e308, 1.0]),
            2,
        ),
        case(
            "probs 1e308, 1e308, 1 at k=3: the kept sum overflows",
            "probs 1e308、1e308、1，k=3：保留项之和溢出",
            np.array([1e308, 1e308, 1.0]),
            3,
        ),
        case("arguments by name (probs=, k=)", "按参数名传参（probs=、k=）", probs=chapter, k=2),
        case(
            "float32 probs: rescaled in float64",
            "float32 的 probs：按 float64 重新缩放",
            rng.dirichlet(np.ones(12)).astype(np.float32),
            5,
        ),
        case(
            "float32 probs, ties at the boundary",
            "float32 的 probs，边界上有并列",
            _tied_probs(rng, 20, 6).astype(np.float32),
            6,
        ),
        case(
            "integer weights (counts): a float64 result",
            "整数权重（计数）：结果为 float64",
            np.array([3, 1, 4, 1, 5, 9, 2, 6]),
            3,
        ),
        case(
            "invalid: a NaN at V=1 (checked before any shortcut)",
            "无效：V=1 时为 NaN（在任何捷径之前检查）",
            np.array([np.nan]),
            1,
        ),
        case(
            "invalid: the one kept entry is 0 at V=1 (checked before any shortcut)",
            "无效：V=1 时保留的唯一一项为 0（在任何捷径之前检查）",
            np.array([0.0]),
            1,
        ),
        case(
            "a kept mass of 1e-300: rescaled to 1, not taken for 0",
            "保留的概率质量为 1e-300：放大到 1，不当作 0",
            np.array([1e-300, 0.0, 0.0]),
            1,
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        v = int(r.integers(1, 60))
        k = int(r.integers(1, v + 1))
        if r.integers(0, 2):
            return case("random ties at k", "随机，第 k 处并列", _tied_probs(r, v, k), k)
        return case("random", "随机", r.dirichlet(np.ones(v)), k)

    edges += [  # from a fourth round of buggy learners (each once a false pass)
        case(
            "a subnormal mass [5e-324, 0, 0]: divided, not multiplied by 1/sum",
            "次正规的质量 [5e-324, 0, 0]：做除法，不乘 1/sum",
            np.array([5e-324, 0.0, 0.0]),
            1,
        ),
        case(
            "a subnormal kept mass 1e-310 is a mass",
            "次正规的保留质量 1e-310 也是质量",
            np.array([1e-310, 0.0, 0.0]),
            1,
        ),
    ]
    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "V = 2,000 all tied, k = 1: the lowest index",
            "V = 2,000 全部并列，k = 1：取最小下标",
            np.full(2000, 1 / 2000),
            1,
        ),
        case(
            "long double probs: a float64 result",
            "long double 的 probs：结果为 float64",
            np.array([0.5, 0.3, 0.2], dtype=np.longdouble),
            2,
        ),
    ]
    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case(
            "float16 probs: rescaled in float64",
            "float16 的 probs：在 float64 中重新缩放",
            np.array([0.3, 0.3, 0.2, 0.2], dtype=np.float16),
            3,
        ),
        case(
            "invalid: (1, V) probs, not a vector",
            "无效：(1, V) 的 probs 不是向量",
            np.array([[0.5, 0.3, 0.2]]),
            1,
        ),
    ]
    edges += [  # from an eighth round of buggy learners (each once a false pass)
        case(
            "a near-tie 1e-13 apart: the larger is kept",
            "相差 1e-13 的近似并列：保留较大者",
            np.array([0.3, 0.3 + 1e-13, 0.4 - 1e-13]),
            2,
        ),
        case(
            "invalid: an entry of -1e-17 (no tolerance below 0)",
            "无效：有一项为 -1e-17（低于 0 没有容差）",
            np.array([0.6, 0.4, -1e-17]),
            1,
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "int64 counts [2**62, 2**62, 1]: summed in float64",
            "int64 计数 [2**62, 2**62, 1]：在 float64 中求和",
            np.array([2**62, 2**62, 1], dtype=np.int64),
            2,
        ),
        case("invalid: 0-d probs", "无效：0 维的概率", np.array(0.7), 1),
    ]
    return _fill(n, edges, rng, draw)


# -- stage 2, beyond the block -------------------------------------------------------------------
def _qkv(r: np.random.Generator, t: int, d: int, d_v: int, scale: float = 1.0) -> tuple[Array, ...]:
    return (
        r.standard_normal((t, d)) * scale,
        r.standard_normal((t, d)) * scale,
        r.standard_normal((t, d_v)),
    )


def _qkv_integer(r: np.random.Generator, t: int, d: int, d_v: int) -> tuple[NDArray[Any], ...]:
    """Small integer q, k (T, d) and v (T, d_v): the contract's float64 result from ints."""
    return (
        r.integers(-2, 3, size=(t, d)),
        r.integers(-2, 3, size=(t, d)),
        r.integers(-5, 6, size=(t, d_v)),
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
        # hunt, 2026-12-03: shapes the reference refuses, and T = 0
        case(
            "invalid: v has more rows than k",
            "无效：v 的行数多于 k",
            *_qkv(rng, 4, 2, 3)[:2],
            rng.standard_normal((6, 3)),
            2,
        ),
        case("invalid: T=0", "无效：T=0", *_qkv(rng, 0, 2, 3), 2),
        case("T=1", "T=1", *_qkv(rng, 1, 4, 4), 4),
        case("block=1", "block=1", *_qkv(rng, 9, 4, 2), 1),
        case("block=T", "block=T", *_qkv(rng, 8, 3, 5), 8),
        case("block > T", "block > T", *_qkv(rng, 7, 4, 4), 20),
        case("block does not divide T", "block 不整除 T", *_qkv(rng, 17, 5, 3), 4),
        case("d_v != d", "d_v != d", *_qkv(rng, 12, 2, 7), 5),
        case(
            "large scores: the running max moves",
            "分数很大：运行中的最大值会变",
            *_qkv(rng, 16, 4, 4, 6.0),
            3,
        ),
        case(
            "scores past 1e3 (exp overflows without a running max)",
            "分数超过 1e3（没有运行最大值 exp 会溢出）",
            *_qkv_extreme(rng, 1.0),
            3,
        ),
        case(
            "every score far below 0 (a running max started at 0 underflows)",
            "所有分数远小于 0（运行最大值从 0 开始会下溢）",
            *_qkv_extreme(rng, -1.0),
            3,
        ),
        case(
            "q = k = [[40], [40]]",
            "q = k = [[40], [40]]",
            np.array([[40.0], [40.0]]),
            np.array([[40.0], [40.0]]),
            v[:2],
            1,
        ),
        case("block as NumPy int64", "block 为 NumPy int64", q, k, v, np.int64(3)),
        case("invalid: block=0", "无效：block=0", q, k, v, 0),
        case("invalid: k is not q's shape", "无效：k 的形状与 q 不同", q, k[:, :2], v, 2),
        case("invalid: v has another T", "无效：v 的 T 不同", q, k, v[:4], 2),
        case(
            "invalid: d_v = 0 (v of shape (T, 0))",
            "无效：d_v = 0（v 的形状为 (T, 0)）",
            q,
            k,
            v[:, :0],
            2,
        ),
        case(
            "scores at finfo(float64).min in the diagonal tile",
            "对角块中的分数为 finfo(float64).min",
            np.array([[np.finfo(np.float64).min], [np.finfo(np.float64).min]]),
            np.ones((2, 1)),
            np.array([[1.0], [3.0]]),
            2,
        ),
        case(
            "scores at finfo(float64).min, block 2 of T=5",
            "分数为 finfo(float64).min，T=5 分块 2",
            np.full((5, 1), np.finfo(np.float64).min),
            np.ones((5, 1)),
            np.arange(5.0)[:, None],
            2,
        ),
        case(
            "arguments by name (q=, k=, v=, block=)",
            "按参数名传参（q=、k=、v=、block=）",
            q=q,
            k=k,
            v=v,
            block=3,
        ),
        case(
            "float32 q, k, v: computed in float64",
            "float32 的 q、k、v：按 float64 计算",
            *(a.astype(np.float32) for a in _qkv(rng, 13, 4, 3, 2.0)),
            4,
        ),
        case(
            "integer q, k, v: a float64 result",
            "整数 q、k、v：结果为 float64",
            *_qkv_integer(rng, 9, 3, 2),
            4,
        ),
        case(
            "invalid: block=0 at T=1 (checked before any shortcut)",
            "无效：T=1 时 block=0（在任何捷径之前检查）",
            *_qkv(np.random.default_rng(20261204), 1, 4, 4),
            0,
        ),
        case(
            "invalid: d = 0 (q and k of shape (T, 0))",
            "无效：d = 0（q 与 k 的形状为 (T, 0)）",
            np.zeros((3, 0)),
            np.zeros((3, 0)),
            np.ones((3, 2)),
            2,
        ),
        case(
            "invalid: k and v longer than q (q of another T)",
            "无效：k 与 v 比 q 长（q 的 T 不同）",
            *_edge_qkv_longer(),
            2,
        ),
        case("invalid: block = -1", "无效：block = -1", *_edge_qkv_longer(same=True), -1),
    ]

    def draw(r: np.random.Generator) -> Case:
        t = int(r.integers(1, 41))
        qkv = _qkv(
            r, t, int(r.integers(1, 9)), int(r.integers(1, 9)), float(r.choice([0.3, 1.0, 4.0]))
        )
        return case("random", "随机", *qkv, int(r.integers(1, t + 4)))

    edges += [  # from a fourth round of buggy learners (each once a false pass)
        case(
            "int8 q, k, v (q·kᵀ = ±400 wraps in int8): computed in float64",
            "int8 的 q、k、v（q·kᵀ = ±400 在 int8 中回绕）：在 float64 中计算",
            np.array([[20], [20]], dtype=np.int8),
            np.array([[20], [-20]], dtype=np.int8),
            np.array([[1], [2]], dtype=np.int8),
            1,
        ),
    ]
    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "long double q, k, v: a float64 result",
            "long double 的 q、k、v：结果为 float64",
            *(a.astype(np.longdouble) for a in _qkv(np.random.default_rng(65), 3, 2, 2)),
            2,
        ),
    ]
    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case(
            "invalid: block np.int64(-1)",
            "无效：block 为 np.int64(-1)",
            *_qkv(np.random.default_rng(66), 3, 2, 2),
            np.int64(-1),
        ),
        case(
            "float16 q, k, v: computed in float64",
            "float16 的 q、k、v：在 float64 中计算",
            *(a.astype(np.float16) for a in _qkv(np.random.default_rng(67), 5, 3, 2)),
            2,
        ),
    ]
    edges += [  # from an eighth round of buggy learners (each once a false pass)
        *_same_bytes_other_shape(2),
    ]
    edges += [  # from a ninth round of buggy learners (each once a false pass)
        case(
            "block = 10**6 at T = 3: no (block, block) buffer",
            "T = 3 时 block = 10**6：不要 (block, block) 的缓冲区",
            np.arange(6.0).reshape(3, 2) / 6,
            np.arange(6.0).reshape(3, 2) / 6,
            np.arange(6.0).reshape(3, 2),
            10**6,
        ),
        *_same_bytes_other_dtype(2),
    ]
    edges += [  # from a sixteenth round of buggy learners (each once a false pass)
        *_same_shapes_twice(
            (np.eye(3), np.eye(3), np.arange(9.0).reshape(3, 3), 2),
            (-np.eye(3), np.eye(3), -np.arange(9.0).reshape(3, 3), 2),
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "invalid: q, k, v of shape (2, 5, 3) (a batch)",
            "无效：形状为 (2, 5, 3) 的 q、k、v（批）",
            *(np.arange(30.0).reshape(2, 5, 3) / 30 for _ in range(3)),
            2,
        ),
    ]
    edges += [  # from a twentieth round of buggy learners (each once a false pass)
        case(
            "block np.int8(100) at T = 300 (no int8 arithmetic: 200 + 100 wraps)",
            "T = 300 时 block 为 np.int8(100)（不做 int8 运算：200 + 100 会回绕）",
            *_qkv(np.random.default_rng(300), 300, 2, 2),
            np.int8(100),
        ),
    ]
    edges += [  # from a twenty-fifth round of buggy learners (each once a false pass)
        *_one_row_typed(np.random.default_rng(2501), 2),
    ]
    return _fill(n, edges, rng, draw)


@generator("linear_attention", subject="linear_attention")
def gen_linear(rng: np.random.Generator, n: int) -> list[Case]:
    q, k, v = _qkv(rng, 6, 3, 2)
    edges = [
        case(
            "invalid: v has more rows than k",
            "无效：v 的行数多于 k",
            *_qkv(rng, 4, 2, 3)[:2],
            rng.standard_normal((6, 3)),
        ),
        case("invalid: T=0", "无效：T=0", *_qkv(rng, 0, 2, 3)),
        case("T=1", "T=1", *_qkv(rng, 1, 4, 4)),
        case("d=1", "d=1", *_qkv(rng, 9, 1, 3)),
        case("d_v != d", "d_v != d", *_qkv(rng, 12, 2, 7)),
        case(
            "large |q|, |k| (φ = x + 1 and e^x both reached)",
            "|q|、|k| 很大（φ = x + 1 与 e^x 两支都用到）",
            *_qkv(rng, 10, 4, 4, 8.0),
        ),
        case(
            "all negative q, k (φ = e^x only)",
            "q、k 全为负（只用到 φ = e^x）",
            -np.abs(q),
            -np.abs(k),
            v,
        ),
        case(
            "q, k up to 1e3 (e^x overflows where φ = x + 1)",
            "q、k 大到 1e3（φ = x + 1 处若用 e^x 会溢出）",
            np.abs(q) * 300,
            np.abs(k) * 300,
            v,
        ),
        case(
            "q, k down to −300 (φ = e^x near 1e-130)",
            "q、k 小到 −300（φ = e^x 约 1e-130）",
            -np.abs(q) * 100 - 100,
            -np.abs(k) * 100 - 100,
            v,
        ),
        case("invalid: k is not q's shape", "无效：k 的形状与 q 不同", q, k[:, :2], v),
        case("invalid: v has another T", "无效：v 的 T 不同", q, k, v[:4]),
        case("arguments by name (q=, k=, v=)", "按参数名传参（q=、k=、v=）", q=q, k=k, v=v),
        case(
            "float32 q, k, v: computed in float64",
            "float32 的 q、k、v：按 float64 计算",
            *(a.astype(np.float32) for a in _qkv(rng, 14, 3, 4, 1.5)),
        ),
        case(
            "integer q, k, v: a float64 result",
            "整数 q、k、v：结果为 float64",
            *_qkv_integer(rng, 10, 3, 2),
        ),
        case(
            "invalid: d = 0 (q and k of shape (T, 0))",
            "无效：d = 0（q 与 k 的形状为 (T, 0)）",
            np.zeros((3, 0)),
            np.zeros((3, 0)),
            np.ones((3, 2)),
        ),
        case(
            "invalid: d_v = 0 (v of shape (T, 0))",
            "无效：d_v = 0（v 的形状为 (T, 0)）",
            np.ones((3, 2)),
            np.ones((3, 2)),
            np.ones((3, 0)),
        ),
        case(
            "T=100: a form in chunks of 64 carries its running sums from chunk to chunk",
            "T=100：按 64 分块计算时，运行和要从一块带到下一块",
            *_qkv(rng, 100, 4, 3),
        ),
        case(
            "invalid: k and v longer than q (q of another T)",
            "无效：k 与 v 比 q 长（q 的 T 不同）",
            *_edge_qkv_longer(),
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        t = int(r.integers(1, 41))
        return case(
            "random",
            "随机",
            *_qkv(
                r, t, int(r.integers(1, 9)), int(r.integers(1, 9)), float(r.choice([0.3, 1.0, 3.0]))
            ),
        )

    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "T = 600: the running sums carried over every position (no restart per chunk)",
            "T = 600：累计和贯穿所有位置（不按块重新开始）",
            *_qkv(np.random.default_rng(300), 600, 4, 3),
        ),
        case(
            "float16 q, k, v: computed in float64",
            "float16 的 q、k、v：在 float64 中计算",
            *(a.astype(np.float16) for a in _qkv(np.random.default_rng(16), 6, 3, 2)),
        ),
    ]
    edges += [  # from a seventh round of buggy learners (each once a false pass)
        case(
            "long double q, k, v: a float64 result",
            "long double 的 q、k、v：结果为 float64",
            *(a.astype(np.longdouble) for a in _qkv(np.random.default_rng(68), 3, 2, 2)),
        ),
        case(
            "int8 q, k of 127 (φ = x + 1 computed in float64, not int8)",
            "值为 127 的 int8 q、k（φ = x + 1 在 float64 中计算，不在 int8 中）",
            np.array([[127], [1]], dtype=np.int8),
            np.array([[127], [-3]], dtype=np.int8),
            np.array([[1], [2]], dtype=np.int8),
        ),
        case(
            "invalid: T = 1 with k of another width (checked before any shortcut)",
            "无效：T = 1 且 k 的宽度不同（在任何捷径之前检查）",
            np.ones((1, 3)),
            np.ones((1, 2)),
            np.ones((1, 2)),
        ),
    ]
    edges += [  # from a ninth round of buggy learners (each once a false pass)
        case(
            "d = d_v = 257 (d·d_v past 65,536): as any width",
            "d = d_v = 257（d·d_v 超过 65,536）：与任何宽度一样",
            np.full((2, 257), 0.01),
            np.linspace(-0.5, 0.5, 514).reshape(2, 257),
            np.arange(514.0).reshape(2, 257) / 514,
        ),
    ]
    edges += [  # from a sixteenth round of buggy learners (each once a false pass)
        *_same_shapes_twice(
            (np.eye(3), np.eye(3), np.arange(9.0).reshape(3, 3)),
            (-np.eye(3), np.eye(3), -np.arange(9.0).reshape(3, 3)),
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "invalid: q, k, v of shape (2, 5, 3) (a batch)",
            "无效：形状为 (2, 5, 3) 的 q、k、v（批）",
            *(np.arange(30.0).reshape(2, 5, 3) / 30 for _ in range(3)),
        ),
    ]
    edges += [  # from an eighteenth round of buggy learners (each once a false pass)
        case(
            "T = 1,100 (the prefix sums run past 1,024 positions, never restarted)",
            "T = 1,100（前缀和跨过 1,024 个位置，从不重新开始）",
            *_qkv(np.random.default_rng(1818), 1100, 4, 3),
        ),
    ]
    edges += [  # from a nineteenth round of buggy learners (each once a false pass)
        *_same_shapes_twice(
            (np.array([[0.3, -0.2]]), np.array([[0.1, 0.5]]), np.array([[1.0, -2.0, 0.5]])),
            (np.array([[-1.0, 0.4]]), np.array([[0.7, -0.3]]), np.array([[0.2, 0.3, -1.5]])),
        ),
    ]
    edges += [  # from a twenty-fifth round of buggy learners (each once a false pass)
        *_one_row_typed(np.random.default_rng(2502)),
        *_same_bytes_other_shape(),
        *_same_bytes_other_dtype(),
    ]
    return _fill(n, edges, rng, draw)


def _same_bytes_other_shape(*block: int) -> list[Case]:
    """q, k as (4, 2), then the same bytes as (2, 4) (then ``block``, for flash): a result
    kept by the arguments' bytes alone answers the second with the first's shape."""
    return [
        case(
            "q, k as (4, 2): the same bytes as the next case's (2, 4)",
            "q、k 为 (4, 2)：与下一例的 (2, 4) 字节相同",
            np.arange(8.0).reshape(4, 2) / 8,
            np.arange(8.0).reshape(4, 2) / 8,
            np.ones((4, 2)),
            *block,
        ),
        case(
            "q, k as (2, 4): the same bytes as the last case's (4, 2)",
            "q、k 为 (2, 4)：与上一例的 (4, 2) 字节相同",
            np.arange(8.0).reshape(2, 4) / 8,
            np.arange(8.0).reshape(2, 4) / 8,
            np.ones((2, 4)),
            *block,
        ),
    ]


def _same_bytes_other_dtype(*block: int) -> list[Case]:
    """float64 q, k, v, then the same bytes as int64: a result kept by the arguments' bytes
    alone answers the second with the first's floats."""
    return [
        case(
            "float64 q, k, v: the same bytes as the next case's int64",
            "float64 的 q、k、v：与下一例的 int64 字节相同",
            np.eye(2),
            np.eye(2),
            np.array([[1.0, 2.0], [3.0, 4.0]]),
            *block,
        ),
        case(
            "int64 q, k, v: the same bytes as the last case's float64 (a cache keyed by dtype)",
            "int64 的 q、k、v：与上一例的 float64 字节相同（缓存须按 dtype 区分）",
            np.eye(2).view(np.int64),
            np.eye(2).view(np.int64),
            np.array([[1.0, 2.0], [3.0, 4.0]]).view(np.int64),
            *block,
        ),
    ]


def _one_row_typed(r: np.random.Generator, *block: int) -> list[Case]:
    """T = 1 in float32 and in integers (then ``block``, for flash): a shortcut at T = 1
    returning v as given keeps its dtype, where the result is float64 (every T = 1 case
    was float64)."""
    q, k, v = _qkv(r, 1, 3, 2)
    return [
        case(
            "T=1, float32 q, k, v: a float64 result",
            "T=1，float32 的 q、k、v：结果为 float64",
            *(a.astype(np.float32) for a in (q, k, v)),
            *block,
        ),
        case(
            "T=1, integer q, k, v: a float64 result",
            "T=1，整数 q、k、v：结果为 float64",
            *_qkv_integer(r, 1, 3, 2),
            *block,
        ),
    ]


# -- edges of argument checking: each from a generator of its own, so adding one does not
# move the random cases of the generator it joins
def _edge_moe(out_width: int = 0, out_experts: int = 0) -> tuple[Any, ...]:
    """x (3, 4), w_router (4, 2), experts_w_in (2, 4, 5), experts_w_out (2 + out_experts, 5,
    4 + out_width), top_k 1."""
    r = np.random.default_rng(231)
    return (
        r.standard_normal((3, 4)),
        r.standard_normal((4, 2)),
        r.standard_normal((2, 4, 5)),
        r.standard_normal((2 + out_experts, 5, 4 + out_width)),
        1,
    )


def _edge_mha_wv() -> tuple[Any, ...]:
    """x (2, 4), w_q and w_k (4, 4), w_v (4, 2), w_o (2, 3), 2 heads."""
    r = np.random.default_rng(232)
    x, w_q, w_k = r.standard_normal((2, 4)), r.standard_normal((4, 4)), r.standard_normal((4, 4))
    return x, w_q, w_k, r.standard_normal((4, 2)), r.standard_normal((2, 3)), 2


def _edge_qkv_longer(same: bool = False) -> tuple[Array, Array, Array]:
    """q (2, 2) and k, v (3, 2), (3, 1); with ``same``, q of k's T."""
    r = np.random.default_rng(233)
    k, v = r.standard_normal((3, 2)), r.standard_normal((3, 1))
    return (r.standard_normal((3, 2)) if same else r.standard_normal((2, 2))), k, v


def _edge_mlp_dout() -> tuple[Array, Array, Array]:
    """x (3, 4), w_in (4, 3), w_out (3, 2): a d_out of its own."""
    r = np.random.default_rng(234)
    return r.standard_normal((3, 4)), r.standard_normal((4, 3)), r.standard_normal((3, 2))


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


def _moe_unchosen(
    r: np.random.Generator, t: int, d: int, d_ff: int, n_experts: int, top_k: int
) -> tuple[Any, ...]:
    """A layer whose last expert no token can choose: a constant first feature of 1 scores it
    near −100, far below every other expert (scores of a few units), and its weights are NaN.
    A routed layer never reads them; one that runs every expert and zeroes its gate gets
    0·NaN = NaN (top_k < E, so the expert is never among the kept)."""
    x, w_router, w_in, w_out, _ = _moe(r, t, d, d_ff, n_experts, top_k)
    x[:, 0] = 1.0
    w_router[0, -1] = -100.0
    w_router[1:, -1] = np.clip(w_router[1:, -1], -1.0, 1.0)  # the rest cannot lift it near 0
    w_in[-1], w_out[-1] = np.nan, np.nan
    return x, w_router, w_in, w_out, top_k


@generator("moe_layer", subject="moe_layer")
def gen_moe(rng: np.random.Generator, n: int) -> list[Case]:
    x, w_router, w_in, w_out, _ = _moe(rng, 6, 4, 8, 4, 2)
    edges = [
        case("E=1 top-1: the dense FFN", "E=1 top-1：即稠密 FFN", *_moe(rng, 5, 4, 8, 1, 1)),
        case("top-1", "top-1", *_moe(rng, 8, 4, 8, 4, 1)),
        case("top-2 of 4", "4 选 2", *_moe(rng, 8, 4, 8, 4, 2)),
        case("top_k = E", "top_k = E", *_moe(rng, 6, 3, 5, 3, 3)),
        case("T=1", "T=1", *_moe(rng, 1, 4, 8, 5, 2)),
        case("ties at the top-k boundary", "top-k 边界上有并列", *_moe_tied(rng, 7, 4, 6, 2)),
        case(
            "ties at the top-k boundary, E=20",
            "top-k 边界上有并列，E=20",
            *_moe_tied(rng, 9, 4, 20, 4),
        ),
        case(
            "router scores of ±1e3 (exp overflows without the max)",
            "路由分数 ±1e3（不减最大值 exp 会溢出）",
            x,
            w_router * 400,
            w_in,
            w_out,
            2,
        ),
        case(
            "router scores of ±1e3 with every expert chosen (top_k = E)",
            "路由分数 ±1e3，且选中全部专家（top_k = E）",
            x,
            w_router * 400,
            w_in,
            w_out,
            w_router.shape[1],
        ),
        case(
            "every router score far below 0 (exp underflows without the max)",
            "所有路由分数远小于 0（不减最大值 exp 会下溢）",
            np.abs(x) + 1,
            -(np.abs(w_router) + 1) * 200,
            w_in,
            w_out,
            3,
        ),
        case("top_k as NumPy int64", "top_k 为 NumPy int64", x, w_router, w_in, w_out, np.int64(2)),
        case("invalid: top_k=0", "无效：top_k=0", x, w_router, w_in, w_out, 0),
        case("invalid: top_k > E", "无效：top_k > E", x, w_router, w_in, w_out, 5),
        case(
            "invalid: w_router has d+1 rows",
            "无效：w_router 有 d+1 行",
            x,
            np.vstack([w_router, w_router[:1]]),
            w_in,
            w_out,
            2,
        ),
        case(
            "invalid: experts_w_in for another E",
            "无效：experts_w_in 的 E 不同",
            x,
            w_router,
            w_in[:3],
            w_out,
            2,
        ),
        case(
            "invalid: experts_w_out of another d_ff",
            "无效：experts_w_out 的 d_ff 不同",
            x,
            w_router,
            w_in,
            w_out[:, :5],
            2,
        ),
        case(
            "arguments by name",
            "按参数名传参",
            x=x,
            w_router=w_router,
            experts_w_in=w_in,
            experts_w_out=w_out,
            top_k=2,
        ),
        case(
            "an expert no token chooses, its weights NaN: never read (top-1)",
            "没有 token 选中的专家，其权重为 NaN：从不读取（top-1）",
            *_moe_unchosen(rng, 7, 4, 6, 4, 1),
        ),
        case(
            "an expert no token chooses, its weights NaN: never read (top-3 of 4)",
            "没有 token 选中的专家，其权重为 NaN：从不读取（4 选 3）",
            *_moe_unchosen(rng, 5, 3, 4, 4, 3),
        ),
        case(
            "float32 inputs: computed in float64",
            "float32 输入：按 float64 计算",
            *(a.astype(np.float32) for a in _moe(rng, 7, 4, 8, 4, 2)[:4]),
            2,
        ),
        case(
            "integer x, float weights: a float64 result",
            "整数 x、浮点权重：结果为 float64",
            rng.integers(-3, 4, size=(6, 4)),
            w_router,
            w_in,
            w_out,
            2,
        ),
        case(
            "invalid: top_k=0 with one expert (checked before any shortcut)",
            "无效：只有一个专家时 top_k=0（在任何捷径之前检查）",
            *_moe(np.random.default_rng(20261204), 5, 4, 8, 1, 1)[:4],
            0,
        ),
        case(
            "invalid: top_k=2 with one expert (checked before any shortcut)",
            "无效：只有一个专家时 top_k=2（在任何捷径之前检查）",
            *_moe(np.random.default_rng(20261205), 5, 4, 8, 1, 1)[:4],
            2,
        ),
        case(
            "invalid: experts_w_out of another output width (E, d_ff, d + 1)",
            "无效：experts_w_out 的输出宽度不同 (E, d_ff, d + 1)",
            *_edge_moe(out_width=1),
        ),
        case(
            "invalid: experts_w_out of another expert count (E + 1, d_ff, d)",
            "无效：experts_w_out 的专家数不同 (E + 1, d_ff, d)",
            *_edge_moe(out_experts=1),
        ),
        case("invalid: top_k = -1", "无效：top_k = -1", *_edge_moe()[:4], -1),
    ]

    def draw(r: np.random.Generator) -> Case:
        n_experts = int(r.integers(1, 9))
        top_k = int(r.integers(1, n_experts + 1))
        t, d, d_ff = int(r.integers(1, 11)), int(r.integers(1, 7)), int(r.integers(1, 9))
        if n_experts >= 3 and r.integers(0, 3) == 0:
            return case("random ties", "随机并列", *_moe_tied(r, t, d, n_experts, top_k))
        return case("random", "随机", *_moe(r, t, d, d_ff, n_experts, top_k))

    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "E = 40 experts, two tied at the top (top_k = 1): the lower index",
            "E = 40 个专家，最高分两个并列（top_k = 1）：取下标小的",
            np.ones((1, 1)),
            np.where(np.isin(np.arange(40), (2, 3)), 1.0, 0.0)[None, :],
            np.arange(1.0, 41.0).reshape(40, 1, 1),
            np.ones((40, 1, 1)),
            1,
        ),
        case(
            "float16 x and weights: computed in float64",
            "float16 的 x 与权重：在 float64 中计算",
            *(
                np.asarray(a, dtype=np.float16)
                for a in (
                    np.random.default_rng(17).standard_normal((3, 4)),
                    np.random.default_rng(18).standard_normal((4, 3)),
                    np.random.default_rng(19).standard_normal((3, 4, 5)),
                    np.random.default_rng(20).standard_normal((3, 5, 4)),
                )
            ),
            2,
        ),
    ]
    edges += [  # from an eighth round of buggy learners (each once a false pass)
        case(
            "router scores 1e-12 apart: the larger expert is chosen",
            "路由分数相差 1e-12：选分数较大的专家",
            np.array([[1.0]]),
            np.array([[1.0, 1.0 + 1e-12]]),
            np.array([[[1.0]], [[2.0]]]),
            np.ones((2, 1, 1)),
            1,
        ),
        case(
            "long double x, float64 weights: a float64 result",
            "long double 的 x、float64 的权重：结果为 float64",
            *(
                a.astype(np.longdouble) if i == 0 else a
                for i, a in enumerate(_moe(np.random.default_rng(32), 3, 4, 5, 3, 2))
            ),
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "int8 x, router and experts: products past int8 computed in float64",
            "int8 的 x、路由器与专家：超出 int8 的乘积在 float64 中计算",
            *(
                np.array(a, dtype=np.int8)
                for a in ([[100]], [[1, 2]], [[[2]], [[2]]], [[[1]], [[1]]])
            ),
            1,
        ),
        case(
            "invalid: x of shape (3,)",
            "无效：形状为 (3,) 的 x",
            np.ones(3),
            np.eye(3)[:, :2],
            np.ones((2, 3, 4)),
            np.ones((2, 4, 3)),
            1,
        ),
        case(
            "invalid: x of shape (2, 3, 4) (leading axes)",
            "无效：形状为 (2, 3, 4) 的 x（多出前导轴）",
            np.ones((2, 3, 4)),
            np.ones((4, 2)),
            np.ones((2, 4, 5)),
            np.ones((2, 5, 4)),
            1,
        ),
    ]
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


# float32 probabilities whose top five, summed in float32, come to 4.1e-8 more than their
# float64 sum: a cut 1e-9 above the float64 sum keeps six tokens, five when the running sum
# is float32 (tests/test_reference_edges.py holds it to that)
F32_PROBS = np.random.default_rng(3).dirichlet(np.ones(10)).astype(np.float32)


@generator("top_p_renormalize", subject="top_p_renormalize")
def gen_top_p(rng: np.random.Generator, n: int) -> list[Case]:
    probs = np.array([0.4, 0.3, 0.15, 0.1, 0.05])
    edges = [
        case(
            "invalid: a negative probability at p = 1 (checked before any shortcut)",
            "无效：p = 1 时出现负概率（在任何捷径之前检查）",
            np.array([0.7, -0.1, 0.4]),
            1.0,
        ),
        case(
            "p = 0.5: the token crossing p is kept", "p = 0.5：越过 p 的那个 token 保留", probs, 0.5
        ),
        case(
            "p exactly at a prefix sum (0.4 + 0.3)", "p 正好等于一个前缀和（0.4 + 0.3）", probs, 0.7
        ),
        case(
            "p just above a prefix sum (0.6 + 1e-9): the third token is kept",
            "p 略大于前缀和（0.6 + 1e-9）：保留第三个 token",
            np.array([0.3, 0.3, 0.2, 0.2]),
            0.6 + 1e-9,
        ),
        case(
            "p just below a prefix sum (0.6 − 1e-9)",
            "p 略小于前缀和（0.6 − 1e-9）",
            np.array([0.3, 0.3, 0.2, 0.2]),
            0.6 - 1e-9,
        ),
        case("p = 1 keeps every token", "p = 1 保留所有 token", probs, 1.0),
        case("p tiny: the top token alone", "p 极小：只留最高的 token", probs, 1e-9),
        case("V=1", "V=1", np.array([1.0]), 0.3),
        case(
            "ties across the cut: lower index first",
            "截断处有并列：下标小的在前",
            np.array([0.1, 0.3, 0.3, 0.3]),
            0.5,
        ),
        case("exact zeros", "精确 0", np.array([0.0, 0.6, 0.0, 0.4]), 0.9),
        case(
            "weights summing to 2: the mass is theirs, not normalized first (one token)",
            "权重之和为 2：按原始质量累计，不先归一化（只留一个 token）",
            np.array([0.6, 0.6, 0.6, 0.2]),
            0.5,
        ),
        case("p as an int (1)", "p 为 int（1）", probs, 1),
        case("invalid: p = 0", "无效：p = 0", probs, 0.0),
        case("invalid: p > 1", "无效：p > 1", probs, 1.5),
        case("invalid: p = NaN", "无效：p = NaN", probs, math.nan),
        case(
            "invalid: a NaN probability", "无效：含 NaN 概率", np.array([0.5, math.nan, 0.5]), 0.5
        ),
        case(
            "invalid: an infinite probability",
            "无效：含无穷大的概率",
            np.array([0.5, math.inf, 0.5]),
            0.5,
        ),
        case("invalid: a negative probability", "无效：含负概率", np.array([0.7, -0.1, 0.4]), 0.5),
        case("invalid: no probabilities", "无效：没有概率", np.zeros(0), 0.5),
        case(
            "invalid: +inf and -inf probabilities",
            "无效：+inf 与 -inf 的概率",
            np.array([math.inf, -math.inf, 0.0]),
            0.5,
        ),
        case(
            "probs 1e308, 1e308, 0: finite, their sum overflows",
            "probs 1e308、1e308、0：有限，其和溢出",
            np.array([1e308, 1e308, 0.0]),
            0.3,
        ),
        case(
            "probs 1e308, 1e308, 1 at p = 1: every token, rescaled",
            "probs 1e308、1e308、1，p = 1：全部保留并重新缩放",
            np.array([1e308, 1e308, 1.0]),
            1.0,
        ),
        case(
            "p equal to the top probability: the top token alone",
            "p 等于最高概率：只留最高的 token",
            TOP_P_PROBS,
            float(TOP_P_PROBS.max()),
        ),
        case(
            "p equal to the float64 running sum of the top two",
            "p 等于前两个的 float64 运行和",
            TOP_P_PROBS,
            float(np.cumsum(np.sort(TOP_P_PROBS)[::-1])[1]),
        ),
        case("arguments by name (probs=, p=)", "按参数名传参（probs=、p=）", probs=probs, p=0.5),
        case(
            "invalid: every probability 0 (nothing to rescale)",
            "无效：所有概率都是 0（无从重新缩放）",
            np.zeros(4),
            0.5,
        ),
        # The running sum is float64 and sequential (np.cumsum, or `mass += p` in a loop): at
        # three terms or more an exactly rounded prefix (math.fsum) or a pairwise sum rounds
        # elsewhere, and a p at that prefix then keeps one token more or fewer
        case(
            "p = 0.9 over [0.4, 0.3, 0.2, 0.1]: the running sum 0.8999999999999999 is below p",
            "p = 0.9，probs 为 [0.4, 0.3, 0.2, 0.1]：运行和 0.8999999999999999 小于 p",
            np.array([0.2, 0.4, 0.1, 0.3]),
            0.9,
        ),
        case(
            "p at the running sum of [0.5, 0.3, 0.15] (0.9500000000000001): three kept",
            "p 等于 [0.5, 0.3, 0.15] 的运行和（0.9500000000000001）：保留三个",
            np.array([0.05, 0.5, 0.15, 0.3]),
            float(np.cumsum([0.5, 0.3, 0.15])[2]),
        ),
        case(
            "float32 probs: summed and rescaled in float64",
            "float32 的 probs：按 float64 累加和重新缩放",
            rng.dirichlet(np.ones(12)).astype(np.float32),
            0.6,
        ),
        case(
            "float32 probs, p 1e-9 above a float64 prefix sum",
            "float32 的 probs，p 比一个 float64 前缀和大 1e-9",
            F32_PROBS,
            float(np.cumsum(np.sort(F32_PROBS.astype(np.float64))[::-1])[4]) + 1e-9,
        ),
        case(
            "invalid: a negative probability at V=1 (checked before any shortcut)",
            "无效：V=1 时概率为负（在任何捷径之前检查）",
            np.array([-1.0]),
            0.5,
        ),
        case("invalid: p < 0", "无效：p < 0", np.array([0.5, 0.3, 0.2]), -0.5),
        case(
            "p = 0.999995 just below 1: the 4e-6 tail is still cut (no closeness to 1)",
            "p = 0.999995，略小于 1：4e-6 的尾部仍被截掉（不按“接近 1”处理）",
            np.array([0.5, 0.499996, 4e-6]),
            0.999995,
        ),
        case(
            "a kept mass of 1e-300: rescaled to 1, not taken for 0",
            "保留的概率质量为 1e-300：放大到 1，不当作 0",
            np.array([1e-300, 0.0, 0.0]),
            0.5,
        ),
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
                return case(
                    "random, p within 1e-9 of a prefix sum",
                    "随机，p 距某个前缀和在 1e-9 以内",
                    p,
                    cut,
                )
        return case("random", "随机", p, float(r.uniform(0.01, 1.0)))

    edges += [  # from a fourth round of buggy learners (each once a false pass)
        case("invalid: V=1 with no mass [0.0]", "无效：V=1 且没有质量 [0.0]", np.array([0.0]), 0.5),
        case(
            "a subnormal mass [5e-324, 0, 0]: divided, not multiplied by 1/sum",
            "次正规的质量 [5e-324, 0, 0]：做除法，不乘 1/sum",
            np.array([5e-324, 0.0, 0.0]),
            0.5,
        ),
        case(
            "p as np.float32(0.6)",
            "p 为 np.float32(0.6)",
            np.array([0.5, 0.3, 0.2]),
            np.float32(0.6),
        ),
    ]
    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "float16 probs [0.5, 0.3, 0.2] at p = 0.6: rescaled in float64",
            "float16 的 probs [0.5, 0.3, 0.2]，p = 0.6：在 float64 中重新缩放",
            np.array([0.5, 0.3, 0.2], dtype=np.float16),
            0.6,
        ),
    ]
    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case(
            "p = 1 on probs that do not sum to 1 ([2, 1, 1])",
            "p = 1，probs 之和不是 1（[2, 1, 1]）",
            np.array([2.0, 1.0, 1.0]),
            1.0,
        ),
    ]
    tied = np.random.default_rng(0).choice([1.0, 2.0, 3.0], size=20)
    edges += [  # ties among 20 values: a default (unstable) argsort keeps other indices
        case(
            "20 probabilities of three values, p = 0.5: ties keep the lower index",
            "三种取值的 20 个概率，p = 0.5：并列时保留下标小的",
            tied / tied.sum(),
            0.5,
        ),
    ]
    edges += [  # from an eighth round of buggy learners (each once a false pass)
        case(
            "invalid: p = 1 + 1e-10 (no tolerance above 1)",
            "无效：p = 1 + 1e-10（高于 1 没有容差）",
            np.array([0.5, 0.3, 0.2]),
            1.0 + 1e-10,
        ),
        case(
            "long double probs: a float64 result",
            "long double 的概率：结果为 float64",
            np.array([0.5, 0.3, 0.2], dtype=np.longdouble),
            0.6,
        ),
    ]
    edges += [  # from a ninth round of buggy learners (each once a false pass)
        case(
            "p = 1 - 1e-9 is below 1: the last token is dropped",
            "p = 1 - 1e-9 小于 1：最后一个 token 被舍去",
            np.array([0.9999999995, 5e-10]),
            1.0 - 1e-9,
        ),
    ]
    edges += [  # from a sixteenth round of buggy learners (each once a false pass)
        case(
            "invalid: (1, V) probs, not a vector",
            "无效：(1, V) 的概率不是向量",
            np.array([[0.5, 0.3, 0.2]]),
            0.5,
        ),
        case(
            "invalid: 0-d probs",
            "无效：0 维的概率",
            np.array(1.0),
            0.5,
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "int64 counts [2**62] * 3 + [1]: the running sum in float64",
            "int64 计数 [2**62] * 3 + [1]：运行和在 float64 中",
            np.array([2**62, 2**62, 2**62, 1], dtype=np.int64),
            0.5,
        ),
        case(
            "p as a NumPy integer np.int64(1)",
            "p 为 NumPy 整数 np.int64(1)",
            np.array([0.5, 0.3, 0.2]),
            np.int64(1),
        ),
    ]
    edges += [  # from an eighteenth round of buggy learners (each once a false pass)
        case(
            "p = 0.9 over ten of 0.1: the running sum of nine is 0.8999999999999999, so all ten "
            "are kept (a pairwise sum of the nine reads 0.9)",
            "十个 0.1、p = 0.9：前九个的运行和是 0.8999999999999999，十个都保留（成对求和得 0.9）",
            np.full(10, 0.1),
            0.9,
        ),
    ]
    edges += [  # from a nineteenth round of buggy learners (each once a false pass)
        case(
            "p one float step above 0.49 over [0.49, 0.18, 0.18, 0.15]: the first two kept "
            "(the mass before, not 1 − the mass after)",
            "p 比 0.49 大一个浮点步长，[0.49, 0.18, 0.18, 0.15]：保留前两个（用之前的质量，不用 1 − 之后的质量）",
            np.array([0.49, 0.18, 0.18, 0.15]),
            float(np.nextafter(0.49, 1.0)),
        ),
        case(
            "2,000 equal tokens at p = 0.9: 1,800 or so kept (no cap on the candidates)",
            "2,000 个相等的 token、p = 0.9：保留约 1,800 个（候选数没有上限）",
            np.full(2000, 1 / 2000),
            0.9,
        ),
    ]
    edges += [  # from a twentieth round of buggy learners (each once a false pass)
        case(
            "probabilities 1e-12 apart are not a tie (ranked in float64, not float32)",
            "相差 1e-12 的概率不是并列（按 float64 排序，而不是 float32）",
            np.array([0.3, 0.3 + 1e-12, 0.4 - 1e-12]),
            0.5,
        ),
        case(
            "invalid: an entry of -1e-17 (no tolerance below 0)",
            "无效：有一项为 -1e-17（低于 0 没有容差）",
            np.array([0.6, 0.4, -1e-17]),
            0.9,
        ),
    ]
    return _fill(n, edges, rng, draw)


@generator("greedy_token", subject="greedy_token")
def gen_greedy(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case(
            "invalid: a NaN logit at V=1 (checked before any shortcut)",
            "无效：V=1 时的 NaN logit（在任何捷径之前检查）",
            np.array([np.nan]),
        ),
        case(
            "the largest finite float beside +inf",
            "最大的有限浮点数与 +inf 并列",
            np.array([np.finfo(np.float64).max, np.inf]),
        ),
        case("chapter logits", "本章的 logits", np.array([2.0, 1.0, -1.0])),
        case("V=1", "V=1", np.array([-3.0])),
        case(
            "ties at the top: the lowest index",
            "最大值并列：取下标最小的",
            np.array([1.0, 5.0, 2.0, 5.0, 5.0]),
        ),
        case(
            "a near tie: [1, 1 + 1e-12]", "几乎并列：[1, 1 + 1e-12]", np.array([1.0, 1.0 + 1e-12])
        ),
        case(
            "a near tie at 1e6 (1e-9 apart)",
            "1e6 处几乎并列（相差 1e-9）",
            np.array([3.0, 1e6, 1e6 + 1e-9, -2.0]),
        ),
        case(
            "a near tie below 0 (1e-13 apart)",
            "0 以下几乎并列（相差 1e-13）",
            np.array([-0.5 - 1e-13, -0.5, -7.0]),
        ),
        case("all equal", "全部相等", np.zeros(7)),
        case("-inf entries", "含 -inf", np.array([-np.inf, -1.0, -np.inf])),
        case("float16 logits", "float16 logits", np.array([0.5, 3.0, 3.0], dtype=np.float16)),
        case("integer logits", "整数 logits", np.array([3, 9, 2, 9])),
        case(
            "bool logits: False < True",
            "bool 的 logits：False < True",
            np.array([False, True, True]),
        ),
        case(
            "int64 logits 2^53 and 2^53 + 1 (equal once cast to float64)",
            "int64 logits 2^53 与 2^53 + 1（转成 float64 后相等）",
            np.array([2**53, 2**53 + 1, 5], dtype=np.int64),
        ),
        case(
            "float32 logits 2^-20 apart (equal once cast to float16)",
            "float32 logits 相差 2^-20（转成 float16 后相等）",
            np.array([1.0, 1.0 + 2.0**-20, -3.0], dtype=np.float32),
        ),
        case(
            "arguments by name (logits=)",
            "按参数名传参（logits=）",
            logits=np.array([0.5, 2.0, -1.0]),
        ),
        case("invalid: a NaN", "无效：含 NaN", np.array([1.0, math.nan, 0.0])),
        case(
            "invalid: a NaN in float32 logits",
            "无效：float32 logits 中含 NaN",
            np.array([1.0, math.nan, 0.0], dtype=np.float32),
        ),
        case(
            "invalid: a NaN in float16 logits",
            "无效：float16 logits 中含 NaN",
            np.array([1.0, math.nan, 0.0], dtype=np.float16),
        ),
        case(
            "+inf and -inf (their sum is NaN): +inf ranks first",
            "+inf 与 -inf（其和为 NaN）：+inf 排第一",
            np.array([-math.inf, math.inf, 0.0]),
        ),
        case("invalid: no logits", "无效：没有 logits", np.zeros(0)),
        case(
            "longdouble logits 2**-60 apart: compared in their own dtype (no cast to float64)",
            "相差 2**-60 的 longdouble logits：按自身的 dtype 比较（不转成 float64）",
            np.array([1, 1], dtype=np.longdouble) + np.array([0, 2.0**-60], dtype=np.longdouble),
        ),
        case(
            "invalid: (2, 2) logits, not a vector (no flattened index)",
            "无效：(2, 2) 的 logits 不是向量（不能返回展平后的下标）",
            np.array([[0.0, 1.0], [5.0, 2.0]]),
        ),
        case("invalid: 0-d logits", "无效：0 维的 logits", np.array(3.0)),
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
                return case("random near tie", "随机，几乎并列", z)
        return case("random", "随机", z)

    edges += [  # from a fourth round of buggy learners (each once a false pass)
        case(
            "uint64 logits [2**63, 1]",
            "uint64 的 logits [2**63, 1]",
            np.array([2**63, 1], dtype=np.uint64),
        ),
        case(
            "invalid: a NaN in longdouble logits",
            "无效：longdouble logits 中含 NaN",
            np.array([1.0, math.nan, 0.0], dtype=np.longdouble),
        ),
        case(
            "every logit -inf: the first",
            "所有 logit 都是 -inf：取第一个",
            np.array([-math.inf, -math.inf]),
        ),
    ]
    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case(
            "invalid: (1, V) logits, not a vector",
            "无效：(1, V) 的 logits 不是向量",
            np.array([[0.1, 0.9, 0.3]]),
        ),
    ]
    edges += [  # from a sixteenth round of buggy learners (each once a false pass)
        case(
            "invalid: NaN beside +inf ([nan, inf])",
            "无效：NaN 与 +inf 同在（[nan, inf]）",
            np.array([math.nan, math.inf]),
        ),
        case(
            "invalid: NaN after +inf in float32 ([0, nan, inf])",
            "无效：float32 中 +inf 之外还有 NaN（[0, nan, inf]）",
            np.array([0.0, math.nan, math.inf], dtype=np.float32),
        ),
    ]
    edges += [  # from a nineteenth round of buggy learners (each once a false pass)
        case(
            "uint64 [2**53, 2**53 + 1]: compared as uint64, not as float64",
            "uint64 的 [2**53, 2**53 + 1]：按 uint64 比较，不按 float64",
            np.array([2**53, 2**53 + 1], dtype=np.uint64),
        ),
    ]
    edges += [  # from a twentieth round of buggy learners (each once a false pass)
        case(
            "V = 3,200 tied at the top at 3,000 and 3,101: the lowest",
            "V = 3,200，3,000 与 3,101 并列最大：取最小下标",
            np.where(np.isin(np.arange(3200), (3000, 3101)), 5.0, np.linspace(-1.0, 1.0, 3200)),
        ),
    ]
    edges += [  # from a twenty-second round of buggy learners (each once a false pass)
        case(
            "V = 128,256 (Llama 3's vocabulary) tied at the top at 5 and 100,000: the lowest",
            "V = 128,256（Llama 3 的词表），5 与 100,000 并列最大：取最小下标",
            np.where(np.isin(np.arange(128_256), (5, 100_000)), 1.0, 0.0),
        ),
    ]
    edges += [  # from a twenty-seventh round of buggy learners (each once a false pass)
        case(
            "float64 [-1, -2]: the same bytes as the next case's int64",
            "float64 的 [-1, -2]：与下一例的 int64 字节相同",
            np.array([-1.0, -2.0]),
        ),
        case(
            "int64 of the last case's bytes: the order of negative floats turned (a cache keyed by dtype)",
            "上一例字节的 int64：负浮点数的顺序反过来了（缓存须按 dtype 区分）",
            np.array([-1.0, -2.0]).view(np.int64),
        ),
    ]
    return _fill(n, edges, rng, draw)


@generator("layer_norm", subject="layer_norm")
def gen_layer_norm(rng: np.random.Generator, n: int) -> list[Case]:
    def ln(r: np.random.Generator, t: int, d: int, scale: float = 1.0) -> tuple[Array, ...]:
        x = r.standard_normal((t, d)) * scale + r.standard_normal()
        return x, r.standard_normal(d), r.standard_normal(d)

    x, g, b = ln(rng, 4, 6)
    edges = [
        case(
            "invalid: eps=0 at d=1 (checked before any shortcut)",
            "无效：d=1 时 eps=0（在任何捷径之前检查）",
            np.ones((3, 1)),
            np.ones(1),
            np.zeros(1),
            0.0,
        ),
        case("T=1", "T=1", *ln(rng, 1, 8)),
        case("d=1: every row normalizes to 0", "d=1：每行归一化后为 0", *ln(rng, 5, 1)),
        case(
            "a constant row: variance 0, eps matters",
            "常数行：方差为 0，eps 起作用",
            np.full((2, 4), 3.0),
            g[:4],
            b[:4],
        ),
        case("tiny features: eps matters", "特征极小：eps 起作用", *ln(rng, 3, 6, 1e-3)),
        case("large offsets", "偏移很大", x + 1e4, g, b),
        case("eps given", "给出 eps", x, g, b, 1e-2),
        case("eps as a keyword", "eps 按关键字传", x, g, b, eps=0.1),
        case("invalid: gain of another width", "无效：gain 宽度不同", x, g[:3], b),
        case("invalid: bias of another width", "无效：bias 宽度不同", x, g, b[:5]),
        case("invalid: eps = 0", "无效：eps = 0", x, g, b, 0.0),
        case("invalid: eps < 0", "无效：eps < 0", x, g, b, -1e-5),
        case("invalid: eps = NaN", "无效：eps = NaN", x, g, b, math.nan),
        case(
            "invalid: bias of shape (1,) (would broadcast)",
            "无效：bias 形状为 (1,)（会被广播）",
            x,
            g,
            b[:1],
        ),
        case(
            "invalid: gain of shape (1,) (would broadcast)",
            "无效：gain 形状为 (1,)（会被广播）",
            x,
            g[:1],
            b,
        ),
        case(
            "invalid: gain of shape (1, d) (the right size, not (d,))",
            "无效：gain 形状为 (1, d)（大小对，但不是 (d,)）",
            x,
            g[None, :],
            b,
        ),
        case("invalid: bias of shape (d, 1)", "无效：bias 形状为 (d, 1)", x, g, b[:, None]),
        case(
            "float32 input: a float64 result",
            "float32 输入：结果为 float64",
            x.astype(np.float32),
            g.astype(np.float32),
            b.astype(np.float32),
        ),
        case(
            "integer x: a float64 result",
            "整数 x：结果为 float64",
            np.arange(24).reshape(4, 6) % 7,
            g,
            b,
        ),
        case(
            "arguments by name (x=, gain=, bias=, eps=)",
            "按参数名传参（x=、gain=、bias=、eps=）",
            x=x,
            gain=g,
            bias=b,
            eps=1e-3,
        ),
        case(
            "invalid: x of shape (d,), one vector without its T axis",
            "无效：x 形状为 (d,)，缺少 T 轴的单个向量",
            x[0],
            g,
            b,
        ),
        case(
            "invalid: x of shape (B, T, d): the contract takes (T, d) only",
            "无效：x 形状为 (B, T, d)：约定只接受 (T, d)",
            np.stack([x, x]),
            g,
            b,
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        return case(
            "random",
            "随机",
            *ln(
                r, int(r.integers(1, 12)), int(r.integers(1, 16)), float(r.choice([0.1, 1.0, 10.0]))
            ),
        )

    edges += [  # from a fourth round of buggy learners (each once a false pass)
        case(
            "float16 x [[1000, 1001, 1003]]: computed in float64",
            "float16 的 x [[1000, 1001, 1003]]：在 float64 中计算",
            np.array([[1000, 1001, 1003]], dtype=np.float16),
            np.ones(3),
            np.zeros(3),
        ),
        case(
            "longdouble x: a float64 result",
            "longdouble 的 x：结果为 float64",
            np.array([[1.0, 2.0, 4.0]], dtype=np.longdouble),
            np.ones(3),
            np.zeros(3),
        ),
    ]
    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "eps = 1, an int",
            "eps = 1，整数",
            np.array([[1.0, 2.0, 4.0]]),
            np.ones(3),
            np.zeros(3),
            1,
        ),
        case(
            "eps = np.float32(1e-5)",
            "eps = np.float32(1e-5)",
            np.array([[1.0, 2.0, 4.0]]),
            np.ones(3),
            np.zeros(3),
            np.float32(1e-5),
        ),
    ]
    edges += [  # from an eighth round of buggy learners (each once a false pass)
        case(
            "invalid: d = 1 with a gain of 3 (checked before any shortcut)",
            "无效：d = 1 而 gain 有 3 个（在任何捷径之前检查）",
            np.ones((2, 1)),
            np.ones(3),
            np.zeros(1),
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "eps as a NumPy integer np.int64(1)",
            "eps 为 NumPy 整数 np.int64(1)",
            np.array([[1.0, 2.0, 4.0]]),
            np.ones(3),
            np.zeros(3),
            np.int64(1),
        ),
    ]
    edges += [  # from a nineteenth round of buggy learners (each once a false pass)
        case(
            "features near 500, 0.01 apart: the centred row's variance (one-pass cancels)",
            "特征在 500 附近、相差 0.01：用中心化后的方差（一次遍历会抵消有效位）",
            500.0 + np.array([[0.0, 0.01, 0.02, 0.03]]),
            np.ones(4),
            np.zeros(4),
        ),
    ]
    edges += [  # from a twenty-second round of buggy learners (each once a false pass)
        case(
            "d = 768 (GPT-2 small's width), rows near 5: computed in float64 at this width too",
            "d = 768（GPT-2 small 的宽度），各行在 5 附近：这个宽度下也用 float64 计算",
            5.0 + 3.0 * np.random.default_rng(768).standard_normal((2, 768)),
            1.0 + 0.1 * np.random.default_rng(769).standard_normal(768),
            0.1 * np.random.default_rng(770).standard_normal(768),
        ),
    ]
    return _fill(n, edges, rng, draw)


@generator("embedding_lookup", subject="embedding_lookup")
def gen_embedding(rng: np.random.Generator, n: int) -> list[Case]:
    table = rng.standard_normal((10, 4))
    edges = [
        case(
            "invalid: a (V, d, d) table",
            "无效：(V, d, d) 的表",
            np.array([0, 1]),
            rng.standard_normal((3, 2, 2)),
        ),
        case("invalid: ids as a list of floats", "无效：id 为浮点数列表", [1.7, 0.0], table),
        case("ids as int64", "id 为 int64", np.array([0, 9, 3, 3]), table),
        case("ids as int32", "id 为 int32", np.array([2, 1], dtype=np.int32), table),
        case("ids as uint8", "id 为 uint8", np.array([7], dtype=np.uint8), table),
        case("T=0: no positions", "T=0：没有位置", np.zeros(0, dtype=np.int64), table),
        case(
            "T=0: an empty float vector (np.array([]))",
            "T=0：空的浮点向量（np.array([])）",
            np.array([]),
            table,
        ),
        case("T=0: an empty list", "T=0：空 list", [], table),
        case("V=1", "V=1", np.zeros(3, dtype=np.int64), rng.standard_normal((1, 5))),
        case("invalid: an id = V", "无效：id = V", np.array([0, 10]), table),
        case("invalid: a negative id", "无效：负的 id", np.array([-1]), table),
        case("invalid: float ids (1.7)", "无效：浮点 id（1.7）", np.array([1.7, 0.0]), table),
        case(
            "invalid: float ids, whole numbers (2.0)",
            "无效：浮点 id，整数值（2.0）",
            np.array([2.0, 3.0]),
            table,
        ),
        case(
            "invalid: ids (B, T), not a vector",
            "无效：id 为 (B, T)，不是向量",
            np.array([[0, 1], [2, 3]]),
            table,
        ),
        case(
            "invalid: a table that is not (V, d)",
            "无效：table 不是 (V, d)",
            np.array([0, 1]),
            rng.standard_normal(10),
        ),
        case(
            "invalid: a 0-d id (np.int64(3)), not a vector",
            "无效：0 维 id（np.int64(3)），不是向量",
            np.int64(3),
            table,
        ),
        case("invalid: a 0-d id array", "无效：0 维 id 数组", np.array(3), table),
        case(
            "invalid: boolean ids (a mask, not ids)",
            "无效：布尔 id（是掩码，不是 id）",
            np.array([True, False, True]),
            table,
        ),
        case(
            "float32 table: float64 rows",
            "float32 table：行为 float64",
            np.array([3, 1]),
            table.astype(np.float32),
        ),
        case(
            "integer table: float64 rows",
            "整数 table：行为 float64",
            np.array([0, 2, 2]),
            np.arange(12).reshape(3, 4),
        ),
        case(
            "arguments by name (tokens=, table=)",
            "按参数名传参（tokens=、table=）",
            tokens=np.array([1, 2]),
            table=table,
        ),
        case(
            "invalid: a (V, d, d) table and no tokens (checked before any shortcut)",
            "无效：没有 token 时表为 (V, d, d)（在任何捷径之前检查）",
            np.zeros(0, dtype=np.int64),
            np.random.default_rng(20261204).standard_normal((3, 2, 2)),
        ),
        case(
            "invalid: ids of shape (2, 0), not a vector",
            "无效：形状为 (2, 0) 的 id，不是向量",
            np.zeros((2, 0), dtype=np.int64),
            np.arange(10.0).reshape(5, 2),
        ),
        case(
            "T = 0 as an empty bool vector (empty, whatever its dtype)",
            "T = 0 的空 bool 向量（空向量，不论 dtype）",
            np.array([], dtype=bool),
            np.arange(10.0).reshape(5, 2),
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        v, d, t = int(r.integers(1, 50)), int(r.integers(1, 9)), int(r.integers(1, 20))
        return case("random", "随机", r.integers(0, v, size=t), r.standard_normal((v, d)))

    edges += [  # from a fourth round of buggy learners (each once a false pass)
        case(
            "invalid: id 2**32 + 1 (no narrowing before the range check)",
            "无效：id 2**32 + 1（检查范围前不能缩窄）",
            np.array([2**32 + 1]),
            np.arange(8.0).reshape(4, 2),
        ),
    ]
    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "a long double table: float64 rows",
            "long double 的表：float64 的行",
            np.array([1, 0]),
            np.arange(4.0, dtype=np.longdouble).reshape(2, 2),
        ),
    ]
    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case(
            "a float16 table: float64 rows",
            "float16 的表：float64 的行",
            np.array([1]),
            np.array([[0.1, 0.2], [0.3, 1 / 3]], dtype=np.float16),
        ),
        case(
            "the same shapes as the next call, other values",
            "与下一次调用形状相同、值不同",
            np.array([1, 0]),
            np.arange(8.0).reshape(4, 2),
        ),
        case(
            "the same shapes as the last call, other values",
            "与上一次调用形状相同、值不同",
            np.array([1, 0]),
            -np.arange(8.0).reshape(4, 2),
        ),
    ]
    edges += [  # from a sixteenth round of buggy learners (each once a false pass)
        case(
            "uint64 ids: valid ids of an unsigned dtype",
            "uint64 的 id：无符号类型的有效 id",
            np.array([1, 0], dtype=np.uint64),
            np.arange(6.0).reshape(3, 2),
        ),
    ]
    edges += [  # from a twenty-seventh round of buggy learners (each once a false pass)
        case(
            "no ids, a float32 table: float64 rows (0, d)",
            "没有 id，float32 的表：float64 的 (0, d)",
            np.array([], dtype=np.int64),
            rng.standard_normal((5, 3)).astype(np.float32),
        ),
    ]
    return _fill(n, edges, rng, draw)


@generator("output_head", subject="output_head")
def gen_output_head(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case("T=1", "T=1", rng.standard_normal((1, 6)), rng.standard_normal((9, 6))),
        case("V=1", "V=1", rng.standard_normal((4, 3)), rng.standard_normal((1, 3))),
        case("V < d", "V < d", rng.standard_normal((5, 8)), rng.standard_normal((3, 8))),
        case(
            "invalid: widths differ",
            "无效：宽度不同",
            rng.standard_normal((4, 3)),
            rng.standard_normal((5, 4)),
        ),
        case(
            "invalid: h of width 1, table of width 3 (would broadcast)",
            "无效：h 宽 1，table 宽 3（会被广播）",
            rng.standard_normal((2, 1)),
            rng.standard_normal((4, 3)),
        ),
        case(
            "invalid: h of width 3, table of width 1 (would broadcast)",
            "无效：h 宽 3，table 宽 1（会被广播）",
            rng.standard_normal((2, 3)),
            rng.standard_normal((4, 1)),
        ),
        case(
            "arguments by name (h=, table=)",
            "按参数名传参（h=、table=）",
            h=rng.standard_normal((3, 4)),
            table=rng.standard_normal((6, 4)),
        ),
        case(
            "float32 h and table: float64 logits",
            "float32 的 h 与 table：logits 为 float64",
            (np.arange(6).reshape(2, 3) / 7).astype(np.float32),
            (np.arange(12).reshape(4, 3) / 11).astype(np.float32),
        ),
        case(
            "integer h, float table: float64 logits",
            "整数 h、浮点 table：logits 为 float64",
            np.arange(-4, 5).reshape(3, 3),
            rng.standard_normal((5, 3)),
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        t, d, v = int(r.integers(1, 12)), int(r.integers(1, 10)), int(r.integers(1, 40))
        return case("random", "随机", r.standard_normal((t, d)), r.standard_normal((v, d)))

    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "long double h: float64 logits",
            "long double 的 h：float64 的 logits",
            np.ones((2, 3), dtype=np.longdouble),
            np.arange(6.0).reshape(2, 3),
        ),
        case(
            "float16 h and table: computed in float64",
            "float16 的 h 与表：在 float64 中计算",
            np.random.default_rng(21).standard_normal((3, 8)).astype(np.float16),
            np.random.default_rng(22).standard_normal((5, 8)).astype(np.float16),
        ),
    ]
    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case(
            "the same shapes as the next call, other values",
            "与下一次调用形状相同、值不同",
            np.ones((1, 3)),
            np.eye(3),
        ),
        case(
            "the same shapes as the last call, other values",
            "与上一次调用形状相同、值不同",
            np.ones((1, 3)),
            2 * np.eye(3),
        ),
    ]
    edges += [  # from a seventh round of buggy learners (each once a false pass)
        case(
            "an int64 h and table past 2**63 together: computed in float64",
            "int64 的 h 与表，乘积超过 2**63：在 float64 中计算",
            np.array([[2**62, 1]], dtype=np.int64),
            np.array([[4, 1], [1, 1]], dtype=np.int64),
        ),
    ]
    edges += [  # from a sixteenth round of buggy learners (each once a false pass)
        case(
            "invalid: a one-dimensional h (3,)",
            "无效：一维的 h (3,)",
            np.ones(3),
            np.ones((5, 3)),
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "invalid: h of shape (2, 3, 4) (leading axes)",
            "无效：形状为 (2, 3, 4) 的 h（多出前导轴）",
            np.ones((2, 3, 4)),
            np.ones((5, 4)),
        ),
        case(
            "invalid: a table of shape (4, 3, 2)",
            "无效：形状为 (4, 3, 2) 的表",
            np.ones((2, 3)),
            np.ones((4, 3, 2)),
        ),
    ]
    edges += [  # from a twenty-first round of buggy learners (each once a false pass)
        case(
            "V = 5,000: every column, past any chunk of 4,096",
            "V = 5,000：每一列，超出 4,096 的分块也在",
            np.random.default_rng(50).standard_normal((2, 3)),
            np.random.default_rng(51).standard_normal((5000, 3)),
        ),
    ]
    return _fill(n, edges, rng, draw)


@generator("sinusoidal_positions", subject="sinusoidal_positions")
def gen_sinusoidal(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case(
            "invalid: an odd d at T=0 (checked before any shortcut)",
            "无效：T=0 时 d 为奇数（在任何捷径之前检查）",
            0,
            5,
        ),
        case("T=0", "T=0", 0, 8),
        case("d=2: one pair", "d=2：一对", 5, 2),
        case("GPT-2 width", "GPT-2 的宽度", 16, 768),
        case("long T", "很长的 T", 5000, 4),
        case("NumPy integers", "NumPy 整数", np.int64(7), np.int32(6)),
        case("invalid: odd d", "无效：d 为奇数", 4, 5),
        case("invalid: d = 0", "无效：d = 0", 4, 0),
        case("invalid: T < 0", "无效：T < 0", -1, 4),
        case(
            "arguments by name (length=, d_model=)",
            "按参数名传参（length=、d_model=）",
            length=6,
            d_model=8,
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        return case("random", "随机", int(r.integers(0, 300)), 2 * int(r.integers(1, 40)))

    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case("T = 1: shape (1, d)", "T = 1：形状 (1, d)", 1, 4),
        case("invalid: length np.int64(-1)", "无效：length 为 np.int64(-1)", np.int64(-1), 4),
    ]
    edges += [  # from a seventh round of buggy learners (each once a false pass)
        case(
            "invalid: d_model = -2 (even, but below 2)",
            "无效：d_model = -2（偶数，但小于 2）",
            3,
            -2,
        ),
    ]
    edges += [  # from a nineteenth round of buggy learners (each once a false pass)
        case(
            "32,770 positions: t past 32,767 (positions never wrap in int16)",
            "32,770 个位置：t 超过 32,767（位置在 int16 里不能回绕）",
            32770,
            2,
        ),
    ]
    return _fill(n, edges, rng, draw)


@generator("rotary_embedding", subject="rotary_embedding")
def gen_rotary(rng: np.random.Generator, n: int) -> list[Case]:
    x = rng.standard_normal((6, 8))
    edges = [
        case("offset left out", "不给 offset", x),
        case("offset given", "给出 offset", x, 5),
        case("offset as a keyword", "offset 按关键字传", x, offset=100),
        case("hs=2: one pair", "hs=2：一对", rng.standard_normal((4, 2)), 3),
        case("T=1 far along", "T=1，位置很靠后", rng.standard_normal((1, 16)), 4000),
        case("offset as NumPy int64", "offset 为 NumPy int64", x, np.int64(7)),
        case("invalid: odd hs", "无效：hs 为奇数", rng.standard_normal((3, 5))),
        case("invalid: offset < 0", "无效：offset < 0", x, -1),
        case("invalid: offset = np.int64(-1)", "无效：offset = np.int64(-1)", x, np.int64(-1)),
        case(
            "integer x: a float64 result", "整数 x：结果为 float64", np.arange(8).reshape(2, 4), 1
        ),
        case(
            "float32 x: a float64 result", "float32 的 x：结果为 float64", x.astype(np.float32), 2
        ),
        case(
            "offset 2^24 + 1: positions in float64",
            "offset 2^24 + 1：位置用 float64",
            np.ones((2, 2)),
            2**24 + 1,
        ),
        case("arguments by name (x=, offset=)", "按参数名传参（x=、offset=）", x=x, offset=3),
        case(
            "invalid: an odd hs at T=0 (checked before any shortcut)",
            "无效：T=0 时 hs 为奇数（在任何捷径之前检查）",
            np.zeros((0, 5)),
        ),
        case(
            "invalid: offset < 0 at T=0 (checked before any shortcut)",
            "无效：T=0 时 offset < 0（在任何捷径之前检查）",
            np.zeros((0, 4)),
            -1,
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        t, hs = int(r.integers(1, 20)), 2 * int(r.integers(1, 9))
        return case("random", "随机", r.standard_normal((t, hs)), int(r.integers(0, 2000)))

    edges += [  # from a fourth round of buggy learners (each once a false pass)
        case(
            "offset np.int32(2**31 - 1): positions past int32",
            "offset 为 np.int32(2**31 - 1)：位置超出 int32",
            np.ones((2, 2)),
            np.int32(2**31 - 1),
        ),
    ]
    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "hs = 64: interleaved pairs at every width",
            "hs = 64：任何宽度都是交错配对",
            np.random.default_rng(64).standard_normal((2, 64)),
            1,
        ),
    ]
    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case(
            "float16 x: computed in float64",
            "float16 的 x：在 float64 中计算",
            np.ones((3, 4), dtype=np.float16),
            7,
        ),
    ]
    edges += [  # from a seventh round of buggy learners (each once a false pass)
        case(
            "long double x: a float64 result",
            "long double 的 x：结果为 float64",
            np.ones((2, 2), dtype=np.longdouble),
            1,
        ),
    ]
    edges += [  # from a sixteenth round of buggy learners (each once a false pass)
        *_same_shapes_twice((np.arange(8.0).reshape(2, 4), 1), (-np.arange(8.0).reshape(2, 4), 1)),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "invalid: x of shape (2, 3, 4) (leading axes)",
            "无效：形状为 (2, 3, 4) 的 x（多出前导轴）",
            np.ones((2, 3, 4)),
            1,
        ),
        case(
            "invalid: x of shape (4,)", "无效：形状为 (4,) 的 x", np.array([1.0, 2.0, 3.0, 4.0]), 5
        ),
    ]
    edges += [  # from a nineteenth round of buggy learners (each once a false pass)
        case(
            "offset = 5, before the next call leaves offset out",
            "offset = 5，下一次调用不给 offset",
            np.ones((2, 2)),
            5,
        ),
        case(
            "offset left out right after a call with offset = 5: positions from 0",
            "紧接在 offset = 5 的调用之后不给 offset：位置从 0 开始",
            np.ones((2, 2)),
        ),
    ]
    return _fill(n, edges, rng, draw)


@generator("kv_cache_bytes", subject="kv_cache_bytes")
def gen_kv_cache(rng: np.random.Generator, n: int) -> list[Case]:
    edges = [
        case(
            "invalid: length<0 at batch=0 (checked before any shortcut)",
            "无效：batch=0 时 length<0（在任何捷径之前检查）",
            0,
            -1,
            12,
            768,
            0,
        ),
        case("GPT-2 small, FP32", "GPT-2 small，FP32", 1, 1024, 12, 768),
        case("batch 8, FP16", "batch 8，FP16", 8, 4096, 32, 4096, 2),
        case("zero tokens", "0 个 token", 4, 0, 12, 768),
        case("zero batch", "batch 为 0", 0, 10, 12, 768),
        case("zero layers", "0 层", 1, 10, 0, 768),
        case("zero width", "宽度为 0", 1, 10, 12, 0),
        case(
            "arguments by name",
            "按参数名传参",
            batch=1,
            length=1024,
            n_layer=12,
            d_model=768,
            bytes_per_value=2,
        ),
        case(
            "NumPy int32 past 2^31",
            "NumPy int32，乘积超过 2^31",
            np.int32(64),
            np.int32(8192),
            np.int32(80),
            np.int32(8192),
        ),
        case(
            "bytes_per_value=3 (any integer >= 1)",
            "bytes_per_value=3（任何 >= 1 的整数）",
            1,
            1024,
            12,
            768,
            3,
        ),
        case(
            "a product past 2^63 (an exact int, no int64 wrap)",
            "乘积超过 2^63（精确的 int，不按 int64 回绕）",
            65536,
            65536,
            65536,
            16384,
            2,
        ),
        case(
            "d_model = 2^62: the bytes per token pass 2^63",
            "d_model = 2^62：每个 token 的字节数超过 2^63",
            1,
            1,
            1,
            2**62,
            4,
        ),
        case(
            "NumPy int64 sizes, a product past 2^63",
            "NumPy int64 尺寸，乘积超过 2^63",
            np.int64(65536),
            np.int64(65536),
            np.int64(65536),
            np.int64(16384),
        ),
        case("invalid: batch < 0", "无效：batch < 0", -1, 10, 12, 768),
        case("invalid: length < 0", "无效：length < 0", 1, -1, 12, 768),
        case("invalid: n_layer < 0", "无效：n_layer < 0", 1, 10, -1, 768),
        case("invalid: d_model < 0", "无效：d_model < 0", 1, 10, 12, -1),
        case("invalid: bytes_per_value = 0", "无效：bytes_per_value = 0", 1, 10, 12, 768, 0),
        case(
            "invalid: bytes_per_value=0 at batch 0 (checked before any shortcut)",
            "无效：batch 为 0 时 bytes_per_value=0（在任何捷径之前检查）",
            0,
            10,
            12,
            768,
            0,
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        sizes = (
            _log_int(r, 1, 256),
            _log_int(r, 1, 131072),
            _log_int(r, 1, 128),
            _log_int(r, 1, 16384),
        )
        if r.integers(0, 3) == 0:
            return case("random, default bytes", "随机，默认字节数", *sizes)
        return case("random", "随机", *sizes, int(r.choice([1, 2, 4, 8])))

    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case(
            "bytes_per_value as np.int32(2): exact past 2**31",
            "bytes_per_value 为 np.int32(2)：超过 2**31 也精确",
            64,
            8192,
            80,
            8192,
            np.int32(2),
        ),
        case(
            "invalid: batch np.int64(-1)",
            "无效：batch 为 np.int64(-1)",
            np.int64(-1),
            1024,
            12,
            768,
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "T = 2**53 + 1: exact past float64",
            "T = 2**53 + 1：超出 float64 的精度，精确",
            1,
            2**53 + 1,
            1,
            1,
            1,
        ),
        case("bytes_per_value = 16", "bytes_per_value = 16", 1, 1024, 12, 768, 16),
    ]
    edges += [  # from a nineteenth round of buggy learners (each once a false pass)
        case(
            "NumPy unsigned sizes (np.uint32): integers too",
            "NumPy 无符号整数（np.uint32）的尺寸：也是整数",
            np.uint32(1),
            np.uint32(1024),
            np.uint32(12),
            np.uint32(768),
        ),
    ]
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
        case("a line of the chapter (UTF-8)", "本章的一行（UTF-8）", line, 280),
        case("vocab_size = 256: no merge", "vocab_size = 256：不合并", line, 256),
        case(
            "aaaa: overlapping pairs counted",
            "aaaa：重叠的相邻对都计数",
            np.frombuffer(b"aaaaaaa", dtype=np.uint8).copy(),
            260,
        ),
        case(
            "ties in the counts: the smallest pair first",
            "计数并列：最小的对先合并",
            np.frombuffer(b"abcdabcdcdab", dtype=np.uint8).copy(),
            262,
        ),
        case(
            "stops when no pair repeats",
            "没有重复的对时停止",
            np.frombuffer(b"abcdefg", dtype=np.uint8).copy(),
            300,
        ),
        case(
            "ties with ids past 255: (1, 257) before (2, 1)",
            "含超过 255 的 id 的并列：(1, 257) 先于 (2, 1)",
            np.array([1, 1, 2, 1, 2, 2, 2, 1, 2, 2, 1, 1, 1], dtype=np.uint8),
            270,
        ),
        case(
            "every byte value, 200 merges", "所有字节值，200 次合并", _byte_rich(rng, 600, 256), 456
        ),
        case(
            "low and high bytes, 150 merges",
            "低位与高位字节，150 次合并",
            _byte_rich(rng, 500, 6),
            406,
        ),
        case("empty text", "空文本", np.zeros(0, dtype=np.uint8), 270),
        case("vocab_size as NumPy int64", "vocab_size 为 NumPy int64", line, np.int64(270)),
        case("invalid: vocab_size < 256", "无效：vocab_size < 256", line, 255),
        case(
            "arguments by name (data=, vocab_size=)",
            "按参数名传参（data=、vocab_size=）",
            data=line,
            vocab_size=270,
        ),
        case(
            "invalid: vocab_size < 256 on an empty text (checked before any shortcut)",
            "无效：空文本上 vocab_size < 256（在任何捷径之前检查）",
            np.zeros(0, dtype=np.uint8),
            255,
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        if r.integers(0, 2):  # a few byte values anywhere in 0..255, and up to 150 merges
            text = _byte_rich(r, int(r.integers(0, 500)), int(r.integers(2, 9)))
            return case(
                "random bytes, many merges",
                "随机字节，多次合并",
                text,
                256 + int(r.integers(0, 150)),
            )
        text = _text(r, int(r.integers(0, 400)), b"ab c.de" if r.integers(0, 2) else b"abab a")
        return case("random", "随机", text, 256 + int(r.integers(0, 40)))

    edges += [  # from a sixth round of buggy learners (each once a false pass)
        case(
            "invalid: vocab_size np.int64(200) (below 256)",
            "无效：vocab_size 为 np.int64(200)（小于 256）",
            np.frombuffer(b"abab", dtype=np.uint8).copy(),
            np.int64(200),
        ),
    ]
    edges += [  # from an eighth round of buggy learners (each once a false pass)
        case(
            "vocab_size 257 on a text the next case trains to 262",
            "vocab_size 257，下一例在同一文本上训练到 262",
            np.frombuffer(b"abcabcabcabc xyz xyz", dtype=np.uint8).copy(),
            257,
        ),
        case(
            "vocab_size 262 on the text the last case trained to 257",
            "vocab_size 262，上一例在同一文本上训练到 257",
            np.frombuffer(b"abcabcabcabc xyz xyz", dtype=np.uint8).copy(),
            262,
        ),
    ]
    edges += [  # from a ninth round of buggy learners (each once a false pass)
        case(
            "vocab_size 10**12 on abab: stops early, nothing sized by it",
            "abab 上 vocab_size 为 10**12：提前停止，不按它分配任何东西",
            np.frombuffer(b"abab", dtype=np.uint8).copy(),
            10**12,
        ),
    ]
    edges += [  # from a seventeenth round of buggy learners (each once a false pass)
        case(
            "4,000 bytes of the chapter, 400 merges: pairs of ids past 511",
            "本章的前 4,000 字节，400 次合并：id 超过 511 的相邻对",
            np.frombuffer(read_corpus("chapter-23.zh.txt")[:4000], dtype=np.uint8).copy(),
            656,
        ),
    ]
    half = np.random.default_rng(1818).integers(0, 256, 800, dtype=np.uint8)  # (800,)
    edges += [  # from an eighteenth round of buggy learners (each once a false pass)
        case(
            "800 random bytes written twice, to 1,056 tokens: every pair seen twice, ids past "
            "1,023 (a pair coded as left·1024 + right meets another)",
            "800 个随机字节写两遍，训练到 1,056 个 token：每个相邻对出现两次，id 超过 1,023"
            "（把相邻对编码为 左·1024 + 右 会与另一个相撞）",
            np.concatenate([half, half]),
            1056,
        ),
    ]
    edges += [  # from a twenty-first round of buggy learners (each once a false pass)
        *_extended(
            (np.frombuffer(b"abab", dtype=np.uint8).copy(), 257),
            (np.frombuffer(b"ababcdcdcdcd", dtype=np.uint8).copy(), 257),
        ),
    ]
    return _fill(n, edges, rng, draw)


@generator("bpe_encode", subject="bpe_encode")
def gen_bpe_encode(rng: np.random.Generator, n: int) -> list[Case]:
    line = np.frombuffer(CHAPTER_LINE, dtype=np.uint8).copy()
    abab = np.frombuffer(b"abababab ab", dtype=np.uint8).copy()
    a, b = ord("a"), ord("b")
    rich = _byte_rich(rng, 600, 256)  # every byte value, the first far more frequent
    edges = [
        case(
            "invalid: a later merge names a token not made yet, after the text is one token",
            "无效：文本已成一个 token 后，后面的合并指向尚未生成的 token",
            np.frombuffer(b"ab", dtype=np.uint8).copy(),
            [(a, b), (300, 1)],
        ),
        case("no merges", "没有合并", line, []),
        case("merges as tuples", "merges 为 tuple", abab, [(a, b), (256, 256)]),
        case("merges as lists", "merges 为 list", abab, [[a, b], [256, 256]]),
        case(
            "aaa with (a, a): left to right",
            "aaa 配 (a, a)：从左到右",
            np.frombuffer(b"aaaaa", dtype=np.uint8).copy(),
            [(a, a)],
        ),
        case(
            "replayed in order, not longest first",
            "按顺序重放，不是最长优先",
            abab,
            [(b, a), (a, b), (256, 257)],
        ),
        case("empty text", "空文本", np.zeros(0, dtype=np.uint8), [(a, b)]),
        case(
            "every byte value, 150 merges", "所有字节值，150 次合并", rich, _bpe_merges(rich, 150)
        ),
        case(
            "invalid: merge 0 names token 300, not made yet",
            "无效：第 0 次合并用到 token 300，尚未生成",
            abab,
            [(300, 1)],
        ),
        case(
            "invalid: merge 1 names token 257, made by merge 1 itself",
            "无效：第 1 次合并用到 token 257，它由第 1 次合并自己生成",
            abab,
            [(a, b), (257, a)],
        ),
        case("invalid: a negative id in a merge", "无效：合并中有负 id", abab, [(a, -1)]),
        case(
            "a merge listed twice: the repeat, replayed in its turn, finds nothing",
            "同一合并列了两次：重复的那次轮到时找不到可合并的对",
            np.frombuffer(b"abab", dtype=np.uint8).copy(),
            [(a, b), (a, b)],
        ),
        case(
            "a merge listed twice, with merges of its token between",
            "同一合并列了两次，中间有用到它的 token 的合并",
            abab,
            [(a, b), (256, 256), (a, b), (257, 256)],
        ),
        case(
            "arguments by name (data=, merges=)",
            "按参数名传参（data=、merges=）",
            data=abab,
            merges=[(a, b), (256, 256)],
        ),
        case(
            "invalid: a merge of a token not made yet, on 1 byte (checked before any shortcut)",
            "无效：1 字节的文本，合并规则引用尚未产生的 token（在任何捷径之前检查）",
            np.array([97], dtype=np.uint8),
            [(300, 1)],
        ),
        case(
            "invalid: a merge of a token not made yet, on no bytes (checked before any shortcut)",
            "无效：空文本，合并规则引用尚未产生的 token（在任何捷径之前检查）",
            np.zeros(0, dtype=np.uint8),
            [(300, 1)],
        ),
    ]

    def draw(r: np.random.Generator) -> Case:
        if r.integers(0, 2):  # a few byte values anywhere in 0..255, and up to 100 merges
            values = int(r.integers(2, 9))
            train = _byte_rich(r, int(r.integers(20, 400)), values)
            merges = _bpe_merges(train, int(r.integers(0, 100)))
            text = np.concatenate([train[: int(r.integers(0, 200))], _byte_rich(r, 50, values)])
            return case("random bytes, many merges", "随机字节，多次合并", text, merges)
        alphabet = b"ab c.de" if r.integers(0, 2) else b"abab a"
        train = _text(r, int(r.integers(20, 300)), alphabet)
        merges = _bpe_merges(train, int(r.integers(0, 30)))
        return case("random", "随机", _text(r, int(r.integers(0, 200)), alphabet), merges)

    edges += [  # from a fourth round of buggy learners (each once a false pass)
        case(
            "invalid: a merge whose right id is not yet made (97, 300)",
            "无效：右边的 id 尚未生成的合并 (97, 300)",
            np.frombuffer(b"abab", dtype=np.uint8).copy(),
            [(97, 300)],
        ),
        case(
            "merges of NumPy ints",
            "由 NumPy 整数组成的合并",
            np.frombuffer(b"abab", dtype=np.uint8).copy(),
            [(np.int64(97), np.int64(98))],
        ),
    ]
    edges += [  # from a fifth round of buggy learners (each once a false pass)
        case(
            "invalid: a merge id 2**32 + 97 (no narrowing to int32)",
            "无效：合并 id 2**32 + 97（不能缩窄成 int32）",
            np.frombuffer(b"ab", dtype=np.uint8).copy(),
            [(2**32 + 97, 98)],
        ),
    ]
    edges += [  # from a twentieth round of buggy learners (each once a false pass)
        case(
            "770 merges: id 1,024 merged again beside bytes (5, 0) (no 10-bit pair codes)",
            "770 次合并：id 1,024 再被合并，旁边是字节 (5, 0)（不能用 10 位的对编码）",
            *_past_1023(),
        ),
    ]
    edges += [  # from a twenty-first round of buggy learners (each once a false pass)
        *_extended(
            (np.frombuffer(b"a", dtype=np.uint8).copy(), [(97, 98)]),
            (np.frombuffer(b"ab", dtype=np.uint8).copy(), [(97, 98)]),
        ),
    ]
    edges += [  # from a twenty-second round of buggy learners (each once a false pass)
        *_other_merges(
            (np.frombuffer(b"abab", dtype=np.uint8).copy(), [(97, 98)]),
            (np.frombuffer(b"abab", dtype=np.uint8).copy(), [(98, 97)]),
        ),
    ]
    return _fill(n, edges, rng, draw)


def _past_1023() -> tuple[NDArray[np.uint8], list[tuple[int, int]]]:
    """Token 1,024 made by merge 768 and merged again by merge 769 as (5, 1,024), beside
    bytes (5, 0): a pair keyed by 10 bits per id, (left << 10) | right, gives both one key.
    The first 768 merges are one pair listed again and again (each replayed in its turn)."""
    merges = [(1, 2)] * 768 + [(3, 4), (5, 1024)]
    return np.array([5, 0, 5, 3, 4], dtype=np.uint8), merges


def _extended(first: tuple[Any, ...], second: tuple[Any, ...]) -> list[Case]:
    """Two calls in a row, the second's input extending the first's: each is a call of its
    own (a cache keyed by a prefix, or a stream resumed, answers the second from the first)."""
    return [
        case("a call whose input the next call extends", "下一次调用会延长其输入的调用", *first),
        case(
            "the last call's input extended: computed afresh",
            "延长上一次调用的输入：重新计算",
            *second,
        ),
    ]


def _reshaped(first: tuple[Any, ...], second: tuple[Any, ...]) -> list[Case]:
    """Two calls in a row, the second's array the first's values in another shape: each is
    computed for its own shape (a cache keyed by the bytes alone answers the second with the
    first's result)."""
    return [
        case(
            "the same values as the next call, another shape",
            "与下一次调用值相同、形状不同",
            *first,
        ),
        case(
            "the last call's values in another shape: computed for this shape",
            "上一次调用的值换一个形状：按这个形状计算",
            *second,
        ),
    ]


def _other_merges(first: tuple[Any, ...], second: tuple[Any, ...]) -> list[Case]:
    """Two calls in a row on the same data with as many merges, other ones: each is encoded
    with its own merges (a cache keyed by the data and the number of merges is not)."""
    return [
        case(
            "the same data and as many merges as the next call, other merges",
            "与下一次调用数据相同、合并数相同、合并不同",
            *first,
        ),
        case(
            "the last call's data with as many other merges: encoded with these",
            "上一次调用的数据配同样多的其他合并：按这些合并编码",
            *second,
        ),
    ]


def _same_shapes_twice(first: tuple[Any, ...], second: tuple[Any, ...]) -> list[Case]:
    """Two calls of the same shapes with other values, one after the other: the second must
    leave the first's result as it was (a buffer per shape, filled and handed out again,
    changes it)."""
    return [
        case(
            "the same shapes as the next call, other values", "与下一次调用形状相同、值不同", *first
        ),
        case(
            "the same shapes as the last call, other values: the last result left as it was",
            "与上一次调用形状相同、值不同：上一次的结果保持不变",
            *second,
        ),
    ]


def _bpe_merges(data: NDArray[np.uint8], count: int) -> list[tuple[int, int]]:
    """Merges for encode cases: the most frequent adjacent pair each time, ties the smallest,
    pairs seen once merged too (any valid list of merges would do; these make encoding merge
    something). The reference's incremental trainer makes them: a plain loop over the text
    for every merge was a tenth of a whole reference run's claims."""
    return _learn(_link([int(v) for v in data], None), count, 1)
