"""Mistakes the function contract names: what docs/chapter-23-contract.md, the scaffold's
docstrings and the contract claims' statements say a function must not do.

:mod:`checks.mistakes` holds the mistakes of the chapter's stages (a scale forgotten, an axis,
a layout); these are the ones the contract spells out where it draws its lines: an argument
check skipped or done on the wrong thing (a shortcut before the checks, NumPy integers left
unchecked, truthiness for a flag, a size compared instead of a shape, a sum tested instead of
each entry), a fill of −1e9 or ``np.finfo(np.float64).min`` for −∞, the max subtracted after
dividing by T, a sum that overflows where the largest is divided first, an int64 product that
wraps, a running max started at 0, a tie rule, a dtype kept, the decided readings of
issue 22, and the mistakes of the audit's functions (top-p, greedy decoding, LayerNorm, the
embedding and output head, positions, the KV cache, BPE).

Each is the reference with that one thing done wrong, as :mod:`checks.mistakes` says of its
own: where it can, a twin runs the reference itself on what the mistake turns its arguments
into (a shortcut, a flag made a bool, a minimum not checked), so it differs in nothing else;
otherwise it is the reference's code with the one line changed. ``tests/test_twins.py`` runs
each against the reference on the generators' cases and holds every difference to the
condition its explanation names.

Mistakes a comparison of outcomes cannot see are not here: a (T, T) array where a running sum
would do (the same values, more memory: the cost claims catch it), an argument written in
place (``inputs_modified`` catches it), and float32 arithmetic whose answer is cast to float64
(off by about 1e-7, which differs from one float32 computation to another by as much, so no
twin could reproduce a learner's to the claims' 1e-9); the first differing call and its
case's label say those.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from checks import twin_args as args
from checks.mistakes import (
    STAGE1,
    STAGE2,
    STAGE2_BEYOND,
    STAGE3,
    STAGE3_TABLE,
    STAGE4,
    STAGE5,
    STAGE6,
    STAGE7,
    _flash,
    _linear,
    _moe,
)
from checks.pack import mistake
from checks.reference import attention as _attention
from checks.reference import blocks as _blocks
from checks.reference import cache as _cache
from checks.reference import params as _params
from checks.reference import positions as _positions
from checks.reference import sampling as _sampling
from checks.reference import support as _support
from checks.reference import tokenizer as _tokenizer
from checks.reference._args import _integer, _rescaled, _shares
from checks.reference.attention import _softmax_last

Array = NDArray[np.float64]
ANY_INT = -(2**63)  # a minimum no argument of the generators goes below: "not checked"
CONTRACT = {
    "zh": "约定（docs/chapter-23-contract.md 与脚手架的文档字符串）",
    "en": "the contract (docs/chapter-23-contract.md and the scaffold's docstrings)",
}


def _where(stage: dict[str, str]) -> dict[str, str]:
    """A stage, and that the contract is where the rule is written."""
    return {"zh": f"{stage['zh']}；{CONTRACT['zh']}", "en": f"{stage['en']}; {CONTRACT['en']}"}


def _numpy_unchecked(name: str, value: object, minimum: int) -> int:
    """``value`` as an exact int, its minimum checked only when it is a Python int."""
    low = minimum if isinstance(value, int) and not isinstance(value, bool) else ANY_INT
    return _integer(name, value, low)


# -- stage 1 ---------------------------------------------------------------------------------
@mistake(
    "support-t0-shortcut",
    replaces="sequence_support_log10",
    explanation={
        "zh": "长度为 0 时在检查 vocab 之前就返回 0.0：V = 0、T = 0 被接受（V ≥ 1 不论 T 是多少都要检查）",
        "en": (
            "returns 0.0 for length 0 before checking vocab: V = 0 at T = 0 is accepted (vocab "
            "≥ 1 is checked whatever T is)"
        ),
    },
    where=_where(STAGE1),
)
def support_t0_shortcut(vocab: int, length: int) -> float:
    """``if length == 0: return 0.0`` before the checks."""
    if length == 0:
        return 0.0
    return _support.sequence_support_log10(vocab, length)


@mistake(
    "support-v1-shortcut",
    replaces="sequence_support_log10",
    explanation={
        "zh": "V = 1 时在检查 length 之前就返回 0.0：V = 1、T = −1 被接受（T ≥ 0 不论 V 是多少都要检查）",
        "en": (
            "returns 0.0 for V = 1 before checking length: V = 1 at T = −1 is accepted (length "
            "≥ 0 is checked whatever V is)"
        ),
    },
    where=_where(STAGE1),
)
def support_v1_shortcut(vocab: int, length: int) -> float:
    """``if vocab == 1: return 0.0`` before the checks."""
    if vocab == 1:
        return 0.0
    return _support.sequence_support_log10(vocab, length)


@mistake(
    "support-numpy-minimum-unchecked",
    replaces="sequence_support_log10",
    explanation={
        "zh": "只对 Python int 检查下限（isinstance(x, int)）：低于下限的 NumPy 整数（np.int64(-1)）不被拒绝",
        "en": (
            "checks the minimum of Python ints only (isinstance(x, int)): a NumPy integer below "
            "it (np.int64(-1)) is not refused"
        ),
    },
    where=_where(STAGE1),
)
def support_numpy_minimum_unchecked(vocab: int, length: int) -> float:
    """The minimums checked on Python ints only."""
    v = _numpy_unchecked("vocab", vocab, 1)
    t = _numpy_unchecked("length", length, 0)
    return t * math.log10(v)  # log10 of a NumPy 0 is math's own ValueError


def _nll_loop(
    joint: Array, index: tuple[int, ...], prefix_mass: float = 1.0, *, zero_check: bool = True
) -> float:
    """The reference's chain rule over a checked joint and token ids."""
    t_len = joint.ndim
    nll: Any = 0.0
    for t in range(1, t_len + 1):
        marginal = joint.sum(axis=tuple(range(t, t_len))) if t < t_len else joint  # (V,)*t
        mass = float(marginal[index[:t]])
        if zero_check:
            if mass == 0.0:
                return math.inf
            nll -= math.log(mass / prefix_mass)
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                nll -= np.log(np.float64(mass) / prefix_mass)  # 0/0 = NaN past a 0 prefix
        prefix_mass = mass
    return float(nll)


@mistake(
    "nll-nan-for-impossible",
    replaces="chain_rule_nll",
    explanation={
        "zh": "不检查概率为 0 的前缀就相除：前缀概率为 0 后得到 0/0 = NaN，而约定是 +inf",
        "en": (
            "divides the marginals without looking for a 0: past a prefix of probability 0 it "
            "gets 0/0 = NaN, where the contract says +inf"
        ),
    },
    where=_where(STAGE1),
)
def chain_rule_nll_nan(joint: Array, tokens: Sequence[int]) -> float:
    """The chain rule with np.log and no test for a prefix of mass 0."""
    table, index = args.joint_and_tokens(joint, tokens)
    return _nll_loop(table, index, zero_check=False)


def _joint_and_tokens(
    joint: object,
    tokens: Sequence[int],
    *,
    sum_test: str = "1e-6",
    shape: str = "shape",
    token_min: int = 0,
) -> tuple[Array, tuple[int, ...]]:
    """chain_rule_nll's checks (those of :func:`checks.twin_args.joint_and_tokens`) with the
    sum, the shape or the tokens' minimum tested another way."""
    table = np.asarray(joint, dtype=np.float64)
    t_len = table.ndim
    if shape == "size":  # V guessed from the size: round(size ** (1/T)) ** T == size
        guess = round(table.size ** (1.0 / t_len)) if t_len >= 1 else 0
        fits = t_len >= 1 and table.size > 0 and guess**t_len == table.size
    else:
        fits = t_len >= 1 and table.size > 0 and len(set(table.shape)) == 1
    if not fits:
        raise ValueError(f"joint must have shape (V,) * T with V, T >= 1, got {table.shape}")
    if not np.all(np.isfinite(table)) or np.any(table < 0):
        raise ValueError("joint must hold finite, non-negative probabilities")
    total = float(table.sum())
    if (not np.isclose(total, 1.0)) if sum_test == "isclose" else abs(total - 1.0) > 1e-6:
        raise ValueError(f"joint must sum to 1, got {total!r}")
    if len(tokens) != t_len:
        raise ValueError(f"tokens has length {len(tokens)}, the joint table has T={t_len}")
    vocab = table.shape[0]
    index = tuple(_integer(f"tokens[{i}]", x, token_min) for i, x in enumerate(tokens))
    if any(x >= vocab for x in index):
        raise ValueError(f"tokens must lie in 0..{vocab - 1}, got {list(index)}")
    return table, index


@mistake(
    "nll-isclose-sum",
    replaces="chain_rule_nll",
    explanation={
        "zh": "用 np.isclose(sum, 1) 检查联合表的和：默认容差约 1e-5，接受了和为 1 ± 5e-6 的表（约定是 1e-6）",
        "en": (
            "checks the joint's sum with np.isclose(sum, 1), whose default tolerance is about "
            "1e-5: joints summing to 1 ± 5e-6 are accepted (the contract's bound is 1e-6)"
        ),
    },
    where=_where(STAGE1),
)
def chain_rule_nll_isclose(joint: Array, tokens: Sequence[int]) -> float:
    """The reference with ``np.isclose`` in place of the 1e-6 bound."""
    table, index = _joint_and_tokens(joint, tokens, sum_test="isclose")
    return _nll_loop(table, index)


@mistake(
    "nll-shape-from-size",
    replaces="chain_rule_nll",
    explanation={
        "zh": "只检查表的大小是不是 V^T，不检查形状：(4, 1) 这样的表被接受（约定是形状 (V,)*T）",
        "en": (
            "checks that the table's size is some V^T, not its shape: a (4, 1) table is accepted "
            "(the contract's shape is (V,) * T)"
        ),
    },
    where=_where(STAGE1),
)
def chain_rule_nll_by_size(joint: Array, tokens: Sequence[int]) -> float:
    """The reference with the shape judged by its size alone."""
    table, index = _joint_and_tokens(joint, tokens, shape="size")
    return _nll_loop(table, index)


@mistake(
    "nll-negative-token-wraps",
    replaces="chain_rule_nll",
    explanation={
        "zh": "不检查 token 是否 ≥ 0：token −1 按 NumPy 的负下标读到最后一片，而不是抛 ValueError",
        "en": (
            "does not check that tokens are ≥ 0: a token of −1 reads the last slice (NumPy's "
            "negative index) instead of raising ValueError"
        ),
    },
    where=_where(STAGE1),
)
def chain_rule_nll_negative_tokens(joint: Array, tokens: Sequence[int]) -> float:
    """The reference with the tokens' minimum left out."""
    table, index = _joint_and_tokens(joint, tokens, token_min=ANY_INT)
    return _nll_loop(table, index)


@mistake(
    "nll-divides-by-table-sum",
    replaces="chain_rule_nll",
    explanation={
        "zh": (
            "第一个条件概率除以了整张表的和：结果是表中那一项除以和的 −ln，"
            "和为 1 ± 5e-7 时差到 5e-7 nat（约定：空前缀的概率是 1，按原值计算）"
        ),
        "en": (
            "divides the first conditional by the whole table's sum: −ln of the entry divided "
            "by the sum, up to 5e-7 nats off for a table summing to 1 ± 5e-7 (the contract: the "
            "empty prefix has probability 1, the table is used as given)"
        ),
    },
    where=_where(STAGE1),
)
def chain_rule_nll_normalized(joint: Array, tokens: Sequence[int]) -> float:
    """The chain rule whose empty prefix has the table's sum for its probability."""
    table, index = args.joint_and_tokens(joint, tokens)
    return _nll_loop(table, index, prefix_mass=float(table.sum()))


# -- stage 2 ---------------------------------------------------------------------------------
@mistake(
    "giant-mlp-with-biases",
    replaces="giant_mlp_parameter_log10",
    explanation={
        "zh": "把第一层的偏置也算了进去，hidden·(V^T + 1)：约定只算权重",
        "en": "counts the first layer's biases too, hid"
        "den·(V^T + 1): the contract counts weights only",
    },
    where=_where(STAGE2),
)
def giant_mlp_with_biases(vocab: int, length: int, hidden: int) -> float:
    """log10((V^T + 1) · hidden)."""
    total = _support.giant_mlp_parameter_log10(vocab, length, hidden)
    support = total - math.log10(_integer("hidden", hidden, 1))
    return total + math.log10(1.0 + 10.0 ** (-support))


# -- stages 3-4: the counts ------------------------------------------------------------------
# A call's arguments by name, as transformer_parameter_count takes them.
CountArgs = dict[str, Any]


def _table(given: CountArgs) -> dict[str, int]:
    """The reference's table for a call's arguments."""
    return _params.transformer_parameter_count(**given)


def _count_mistake(
    name: str, zh: str, en: str, compute: Callable[[CountArgs], dict[str, int]]
) -> Callable[..., dict[str, int]]:
    """A twin of transformer_parameter_count with the reference's signature, whose table is
    ``compute`` of the call's arguments (each twin below: the reference after the one
    check or reading it gets wrong)."""

    def count(
        vocab: int,
        d_model: int,
        n_layer: int,
        d_ff: int,
        context_length: int,
        *,
        n_head: int | None = None,
        positions: _params.Positions = "none",
        biases: bool = False,
        layernorm: bool = False,
        tied: bool = True,
    ) -> dict[str, int]:
        given: CountArgs = {
            "vocab": vocab,
            "d_model": d_model,
            "n_layer": n_layer,
            "d_ff": d_ff,
            "context_length": context_length,
            "n_head": n_head,
            "positions": positions,
            "biases": biases,
            "layernorm": layernorm,
            "tied": tied,
        }
        return compute(given)

    count.__name__ = count.__qualname__ = name.replace("-", "_")
    count.__doc__ = en
    return mistake(
        name,
        replaces="transformer_parameter_count",
        explanation={"zh": zh, "en": en},
        where=_where(STAGE3_TABLE),
    )(count)


def _truthy(given: CountArgs) -> dict[str, int]:
    flags = {f: bool(given[f]) for f in ("biases", "layernorm", "tied")}
    return _table({**given, **flags})


def _renamed(rename: Callable[[Any], Any]) -> Callable[[CountArgs], dict[str, int]]:
    return lambda given: _table({**given, "positions": rename(given["positions"])})


def _heads_sign_unchecked(given: CountArgs) -> dict[str, int]:
    """n_head checked for 0 and divisibility only (the count never depends on it)."""
    d = _integer("d_model", given["d_model"], 1)
    if given["n_head"] is not None:
        heads = _integer("n_head", given["n_head"], ANY_INT)
        if heads == 0 or d % heads:
            raise ValueError(f"n_head={heads} must divide d_model={d}")
    return _table({**given, "n_head": None})


def _vocab_from_zero(given: CountArgs) -> dict[str, int]:
    """vocab >= 0: vocab 1's table with the vocabulary's terms (linear in V) set to 0."""
    v = _integer("vocab", given["vocab"], 0)
    table = _table({**given, "vocab": max(v, 1)})
    if v == 0:
        table["total"] -= table["embedding"] + table["head"]
        table["embedding"], table["head"] = 0, 0
    return table


def _python_bools(given: CountArgs) -> dict[str, int]:
    for flag in ("biases", "layernorm", "tied"):
        if type(given[flag]) is not bool:
            raise ValueError(f"{flag} must be True or False, got {given[flag]!r}")
    return _table(given)


params_flags_truthy = _count_mistake(
    "params-flags-truthy",
    '开关按真假值解释（bool(x)）：biases="no" 算上了偏置，tied=None 解开了共享，而约定只接受 True 或 False',
    'reads the flags by truthiness (bool(x)): biases="no" counts the biases and tied=None '
    "unties the head, where the contract takes True or False only",
    _truthy,
)
params_positions_case_folded = _count_mistake(
    "params-positions-case-folded",
    'positions 先转成小写："Learned"、"ROPE" 被接受，而约定只认四个小写的名字',
    'lower-cases positions: "Learned" and "ROPE" are accepted, where the contract knows '
    "four lower-case names only",
    _renamed(lambda p: p.lower() if isinstance(p, str) else p),
)
params_positions_aliases = _count_mistake(
    "params-positions-aliases",
    '把 "rotary" 当作 "rope"、"absolute" 当作 "learned"：约定不认别名',
    'takes "rotary" for "rope" and "absolute" for "learned": the contract has no aliases',
    _renamed(
        lambda p: {"rotary": "rope", "absolute": "learned"}.get(p, p) if isinstance(p, str) else p
    ),
)
params_positions_none_as_default = _count_mistake(
    "params-positions-none-as-default",
    '把 positions=None 当作 "none"：约定拒绝 None（没有默认值的替代）',
    'takes positions=None for "none": the contract refuses None (no stand-in default)',
    _renamed(lambda p: "none" if p is None else p),
)
params_n_head_sign_unchecked = _count_mistake(
    "params-n-head-sign-unchecked",
    "只检查 n_head 不为 0 且整除 d_model，不检查 n_head ≥ 1：−4 整除 768，被接受",
    "checks only that n_head is not 0 and divides d_model, not that it is ≥ 1: −4 divides 768 "
    "and is accepted",
    _heads_sign_unchecked,
)
params_vocab_zero_accepted = _count_mistake(
    "params-vocab-zero-accepted",
    "vocab 的下限写成了 0（像 context_length 那样）：vocab = 0 得到一个计数，而约定是 vocab ≥ 1",
    "checks vocab ≥ 0 (as for context_length): vocab = 0 gives a count, where the contract "
    "says vocab ≥ 1",
    _vocab_from_zero,
)
params_flags_python_bool_only = _count_mistake(
    "params-flags-python-bool-only",
    "只接受 type(flag) is bool：NumPy 的布尔值（np.True_、np.False_）被拒绝，而约定把它们当作 bool",
    "accepts a flag only when type(flag) is bool: NumPy's bools (np.True_, np.False_) are "
    "refused, where the contract takes them as bools",
    _python_bools,
)


@mistake(
    "params-n-head-default-12",
    replaces="transformer_parameter_count",
    explanation={
        "zh": "不给 n_head 时按 GPT-2 的 12 个头处理：d_model 不能被 12 整除时报错，而约定是不给就什么都不用整除",
        "en": (
            "takes a left-out n_head as GPT-2's 12 heads: a d_model that 12 does not divide is "
            "refused, where the contract says nothing has to divide when it is left out"
        ),
    },
    where=_where(STAGE3_TABLE),
)
def parameter_count_twelve_heads(
    vocab: int,
    d_model: int,
    n_layer: int,
    d_ff: int,
    context_length: int,
    *,
    n_head: int | None = 12,
    positions: _params.Positions = "none",
    biases: bool = False,
    layernorm: bool = False,
    tied: bool = True,
) -> dict[str, int]:
    """``n_head=12`` as the default (its own signature: a left-out n_head is 12 here)."""
    return _params.transformer_parameter_count(
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


@mistake(
    "attention-params-sign-unchecked",
    replaces="attention_parameter_count",
    explanation={
        "zh": "只检查 n_head 不为 0 且整除 d_model，不检查 n_head ≥ 1：−4 整除 768，被接受",
        "en": (
            "checks only that n_head is not 0 and divides d_model, not that it is ≥ 1: −4 "
            "divides 768 and is accepted"
        ),
    },
    where=_where(STAGE4),
)
def attention_parameters_negative_heads(d_model: int, n_head: int) -> int:
    """n_head checked for 0 and divisibility only."""
    d = _integer("d_model", d_model, 1)
    h = _integer("n_head", n_head, ANY_INT)
    if h == 0 or d % h:
        raise ValueError(f"n_head={h} must divide d_model={d}")
    return h * 3 * d * (d // h) + d * d


@mistake(
    "attention-params-float",
    replaces="attention_parameter_count",
    explanation={
        "zh": "头宽用了真除法 d / H：结果是浮点数，而约定是精确的 int",
        "en": "takes the head width with true division,"
        " d / H: the count is a float, not the exact int",
    },
    where=_where(STAGE4),
)
def attention_parameters_true_division(d_model: int, n_head: int) -> float:
    """``head = d_model / n_head``."""
    d, h, _ = args.heads(d_model, n_head)
    return h * 3 * d * (d / h) + d * d


# -- stage 5: the mask -----------------------------------------------------------------------
def _mask_filled(scores: Array, fill: float) -> Array:
    scores = args.scores(scores)  # (..., T, T)
    t_len = scores.shape[-1]
    future = np.triu(np.ones((t_len, t_len), dtype=bool), k=1)
    return _softmax_last(np.where(future, fill, scores))


@mistake(
    "mask-finfo-min",
    replaces="causal_masked_attention",
    explanation={
        "zh": "未来位置填 np.finfo(np.float64).min 而不是 −∞：它也是有限分数，可见分数在那个最小值附近时未来分到权重",
        "en": (
            "fills the future with np.finfo(np.float64).min instead of −∞: a finite score too, "
            "so where the visible scores sit near that minimum the future gets weight"
        ),
    },
    where=_where(STAGE5),
)
def causal_mask_finfo_min(scores: Array) -> Array:
    """masked_fill with the most negative float64."""
    return _mask_filled(scores, float(np.finfo(np.float64).min))


@mistake(
    "mask-fill-minus-1e9",
    replaces="causal_masked_attention",
    explanation={
        "zh": "未来位置填 −1e9 而不是 −∞：分数量级到 1e9 以上时未来重新分到权重",
        "en": (
            "fills the future with −1e9 instead of −∞: once scores reach 1e9 and beyond, the "
            "future gets weight again"
        ),
    },
    where=_where(STAGE5),
)
def causal_mask_minus_1e9(scores: Array) -> Array:
    """A 'large negative' −1e9 in place of −inf."""
    return _mask_filled(scores, -1e9)


# -- stage 4: heads --------------------------------------------------------------------------
def _mha(
    x: Array,
    w_q: Array,
    w_k: Array,
    w_v: Array,
    w_o: Array,
    n_head: int,
    *,
    split: str = "heads-first",
    scale: str = "hs",
) -> Array:
    """The reference's multi-head attention with the split or the scale done another way."""
    x, w_q, w_k, w_v, w_o, n_head, hs = args.mha_weights(x, w_q, w_k, w_v, w_o, n_head)
    t_len = x.shape[0]
    width = n_head * hs

    def heads(w: Array) -> Array:
        y = x @ w  # (T, W)
        if split == "interleaved":
            return y.reshape(t_len, hs, n_head).transpose(2, 0, 1)  # (H, T, hs), columns h::H
        return y.reshape(t_len, n_head, hs).transpose(1, 0, 2)  # (H, T, hs)

    q, k, v = heads(w_q), heads(w_k), heads(w_v)
    factor = math.sqrt(width if scale == "width" else hs)
    weights = np.asarray(_attention.causal_masked_attention(q @ k.transpose(0, 2, 1) / factor))
    out = weights @ v  # (H, T, hs)
    concat = out.transpose(1, 0, 2).reshape(t_len, width)  # (T, W), heads side by side
    result: Array = concat @ w_o
    return result


@mistake(
    "mha-split-interleaved",
    replaces="multi_head_attention",
    explanation={
        "zh": "投影拆成 (T, hs, H) 而不是 (T, H, hs)：第 h 个头拿到的是第 h、h+H、h+2H… 列，拼接时却按连续的列放回",
        "en": (
            "splits the projections as (T, hs, H) instead of (T, H, hs): head h takes columns "
            "h, h+H, h+2H, … but is put back into contiguous columns"
        ),
    },
    where=_where(STAGE4),
)
def mha_split_interleaved(
    x: Array, w_q: Array, w_k: Array, w_v: Array, w_o: Array, n_head: int
) -> Array:
    """reshape(T, hs, H) for the heads; the concatenation as the reference's."""
    return _mha(x, w_q, w_k, w_v, w_o, n_head, split="interleaved")


@mistake(
    "mha-scale-by-width",
    replaces="multi_head_attention",
    explanation={
        "zh": "分数除以 √W（所有头的总宽度）而不是 √hs（一个头的宽度）：头越多 softmax 越平",
        "en": (
            "divides the scores by √W, the width of all heads together, instead of √hs, one "
            "head's: the more heads, the flatter the softmax"
        ),
    },
    where=_where(STAGE4),
)
def mha_scale_by_width(
    x: Array, w_q: Array, w_k: Array, w_v: Array, w_o: Array, n_head: int
) -> Array:
    """q·k / √W."""
    return _mha(x, w_q, w_k, w_v, w_o, n_head, scale="width")


# -- stage 6: temperature --------------------------------------------------------------------
def _softmax_steps(
    logits: NDArray[np.floating],
    temperature: float,
    *,
    order: str = "max-first",
    max_over: str = "row",
    divide: str = "wide",
    finite: str = "each",
    integers: str = "cast-first",
) -> NDArray[np.floating]:
    """The reference's softmax_temperature with one step done another way (see each twin)."""
    args.temperature_is_real(temperature)
    args.temperature_is_positive(temperature)
    z = np.asarray(logits)
    if not np.issubdtype(z.dtype, np.floating):
        if not (np.issubdtype(z.dtype, np.integer) or z.dtype == np.bool_):
            raise ValueError(f"logits must be real numbers, got dtype {z.dtype}")
        if integers == "subtract-first" and z.dtype.kind in "iu" and z.size and z.ndim:
            z = z - z.max(axis=-1, keepdims=True)  # in the logits' own dtype: uint8 wraps
        z = z.astype(np.float64)
    if z.ndim < 1 or z.shape[-1] == 0 or z.size == 0:
        raise ValueError(f"logits must have shape (..., V) with V >= 1, got {z.shape}")
    with np.errstate(over="ignore", invalid="ignore"):
        ok = np.all(np.isfinite(z)) if finite == "each" else bool(np.isfinite(z.sum()))
    if not ok:
        raise ValueError("logits must be finite (no NaN or ±inf)")

    def shifted(a: NDArray[np.floating]) -> NDArray[np.floating]:
        top = a.max(axis=-1, keepdims=True) if max_over == "row" else a.max()
        return a - top  # type: ignore[no-any-return]

    def divided(a: NDArray[np.floating]) -> NDArray[np.floating]:
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            if divide == "own":
                return a / temperature
            return args.over_temperature(a, temperature)

    with np.errstate(invalid="ignore"):
        z = divided(shifted(z)) if order == "max-first" else shifted(divided(z))
        out: NDArray[np.floating] = _shares(np.exp(z))
    return out


def _temperature_mistake(
    name: str, zh: str, en: str, **how: str
) -> Callable[[NDArray[np.floating], float], NDArray[np.floating]]:
    def softmax_temperature(
        logits: NDArray[np.floating], temperature: float
    ) -> NDArray[np.floating]:
        return _softmax_steps(logits, temperature, **how)

    softmax_temperature.__name__ = softmax_temperature.__qualname__ = name.replace("-", "_")
    softmax_temperature.__doc__ = en
    return mistake(
        name,
        replaces="softmax_temperature",
        explanation={"zh": zh, "en": en},
        where=_where(STAGE6),
    )(softmax_temperature)


temperature_divides_before_max = _temperature_mistake(
    "temperature-divides-before-max",
    "先除以 T 再减最大值：T 很小时 z/T 先溢出（float16 在 T = 1e-5、"
    "float64 在 T = 1e-300 得到 ∞ − ∞ = NaN），或在减之前就丢了精度",
    "divides by T before subtracting the max: at a small T, z/T overflows first (float16 at "
    "T = 1e-5, float64 at T = 1e-300 give ∞ − ∞ = NaN) or loses its precision before the "
    "subtraction",
    order="divide-first",
)
temperature_one_max_per_batch = _temperature_mistake(
    "temperature-one-max-per-batch",
    "对整批只减一个最大值，而不是逐行减：最大值远低于全批最大值的那些行 exp 全部下溢为 0，得到 0/0 = NaN",
    "subtracts one max for the whole batch instead of each row's: the rows far below the "
    "batch's max underflow to exp = 0 everywhere, and 0/0 = NaN",
    max_over="batch",
)
temperature_divides_in_own_dtype = _temperature_mistake(
    "temperature-divides-in-own-dtype",
    "在 logits 自己的类型里除以 T：低于 6e-8 时 T 在 float16 里就是 0（T = 1e-8），除以它得到 −∞ 与 0/0 = NaN",
    "divides by T in the logits' own dtype: below 6e-8, T is 0 in float16 (T = 1e-8), and "
    "dividing by it gives −∞ and 0/0 = NaN",
    divide="own",
)
temperature_uint_wraps = _temperature_mistake(
    "temperature-uint-wraps",
    "整数 logits 在转成 float64 之前就减去了最大值：uint8 的 3 − 4 回绕成 255（int8 的 −100 − 100 也回绕）",
    "subtracts the max from integer logits before casting them to float64: in uint8, "
    "3 − 4 wraps around to 255 (in int8, −100 − 100 wraps too)",
    integers="subtract-first",
)
temperature_finite_via_sum = _temperature_mistake(
    "temperature-finite-via-sum",
    "用 isfinite(sum) 检查 logits 是否有限：和会溢出的有限 logits（[1e308, 1e308, 0]）被拒绝，而约定要逐个元素检查",
    "tests the logits' sum for finiteness: finite logits whose sum overflows ([1e308, 1e308, "
    "0]) are refused, where the contract tests each entry",
    finite="sum",
)


# -- stage 6: top-k --------------------------------------------------------------------------
@mistake(
    "topk-divides-by-inf-sum",
    replaces="top_k_renormalize",
    explanation={
        "zh": "直接除以保留项之和：和溢出为 ∞ 时结果全是 0（[1e308, 1e308, 1] 在 k = 2 时），而约定先除以最大的一项",
        "en": (
            "divides by the kept entries' sum as it is: when it overflows to ∞ the result is all "
            "0 ([1e308, 1e308, 1] at k = 2), where the contract divides by the largest first"
        ),
    },
    where=_where(STAGE6),
)
def top_k_inf_sum(probs: Array, k: int) -> Array:
    """out / out.sum(), with no care for an overflowing sum."""
    p, k = args.probs_and_k(probs, k)
    keep = np.argsort(-p, kind="stable")[:k]
    out = np.zeros_like(p)
    out[keep] = p[keep]
    if not out.max() > 0:
        raise ValueError("the k kept probabilities sum to 0; nothing to renormalize")
    with np.errstate(over="ignore"):
        result: Array = out / out.sum()
    return result


@mistake(
    "topk-finite-via-sum",
    replaces="top_k_renormalize",
    explanation={
        "zh": (
            "用 isfinite(sum) 检查 probs 是否有限："
            "和会溢出的有限 probs（[1e308, 1e308, 0]）被拒绝，而约定要逐个元素检查"
        ),
        "en": (
            "tests the probs' sum for finiteness: finite probs whose sum overflows ([1e308, "
            "1e308, 0]) are refused, where the contract tests each entry"
        ),
    },
    where=_where(STAGE6),
)
def top_k_finite_via_sum(probs: Array, k: int) -> Array:
    """The reference, after ``np.isfinite(probs.sum())``."""
    p = np.asarray(probs, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        if p.ndim == 1 and p.size and not np.isfinite(p.sum()):
            raise ValueError("probs must be finite and non-negative")
    return np.asarray(_sampling.top_k_renormalize(probs, k), dtype=np.float64)


@mistake(
    "topk-numpy-k-unchecked",
    replaces="top_k_renormalize",
    explanation={
        "zh": "只对 Python int 检查 k ≥ 1：k = np.int64(-1) 不被拒绝，切片 [:−1] 保留了 V − 1 个",
        "en": (
            "checks k ≥ 1 for Python ints only: k = np.int64(-1) is not refused, and the slice "
            "[:−1] keeps V − 1 entries"
        ),
    },
    where=_where(STAGE6),
)
def top_k_numpy_k(probs: Array, k: int) -> Array:
    """k's minimum checked on Python ints only."""
    kept = _numpy_unchecked("k", k, 1)
    if kept >= 1:
        return np.asarray(_sampling.top_k_renormalize(probs, k), dtype=np.float64)
    p, _ = args.probs_and_k(probs, 1)  # the probs checked as the reference checks them
    keep = np.argsort(-p, kind="stable")[:kept]  # a negative k: all but the last |k|
    out = np.zeros_like(p)
    out[keep] = p[keep]
    return args.renormalized(out)


@mistake(
    "topk-answer-in-probs-dtype",
    replaces="top_k_renormalize",
    explanation={
        "zh": (
            "结果用 np.zeros_like(probs) 建立并原地相除：整数权重（计数）"
            "的数组无法原地除（TypeError），float32 的 probs 得到 float32，而约定是 float64"
        ),
        "en": (
            "builds the answer with np.zeros_like(probs) and divides in place: integer weights "
            "(counts) cannot be divided in place (a TypeError), float32 probs give float32, "
            "where the contract says float64"
        ),
    },
    where=_where(STAGE6),
)
def top_k_in_probs_dtype(probs: Array, k: int) -> Array:
    """The reference's steps on an answer of the probs' own dtype."""
    p, k = args.probs_and_k(probs, k)
    keep = np.argsort(-p, kind="stable")[:k]
    out = np.zeros_like(np.asarray(probs))  # int64 for counts, float32 for float32
    out[keep] = p[keep]
    top = out.max()
    if not top > 0:
        raise ValueError("the k kept probabilities sum to 0; nothing to renormalize")
    with np.errstate(over="ignore"):
        overflows = not np.isfinite(out.sum())
    if overflows:
        out /= top
    out /= out.sum()
    return out


# -- stage 7: the logits' bytes ----------------------------------------------------------------
def _logits_bytes(
    batch: int, length: int, vocab: int, bytes_per_value: int, *, minimum: int = 0
) -> tuple[int, int, int, int]:
    return (
        _integer("batch", batch, minimum),
        _integer("length", length, minimum),
        _integer("vocab", vocab, minimum),
        _integer("bytes_per_value", bytes_per_value, 1),
    )


@mistake(
    "logits-int64-product",
    replaces="logits_memory_bytes",
    explanation={
        "zh": "用 np.prod 在 int64 里求乘积：超过 2^63 时静默回绕（2^21·2^21·2^21·2 得到 0），而约定是精确的 int",
        "en": (
            "takes the product with np.prod in int64: past 2^63 it silently wraps around "
            "(2^21·2^21·2^21·2 gives 0), where the contract's count is an exact int"
        ),
    },
    where=_where(STAGE7),
)
def logits_memory_int64(batch: int, length: int, vocab: int, bytes_per_value: int = 4) -> int:
    """np.prod of the four sizes, dtype int64."""
    sizes = _logits_bytes(batch, length, vocab, bytes_per_value)
    return int(np.prod(np.array(sizes, dtype=np.int64)))


@mistake(
    "logits-common-sizes-only",
    replaces="logits_memory_bytes",
    explanation={
        "zh": "只接受 1、2、4、8 字节：bytes_per_value = 3 被拒绝，而约定接受任何 ≥ 1 的整数",
        "en": (
            "accepts 1, 2, 4 or 8 bytes only: bytes_per_value = 3 is refused, where the contract "
            "takes any integer ≥ 1"
        ),
    },
    where=_where(STAGE7),
)
def logits_memory_common_sizes(
    batch: int, length: int, vocab: int, bytes_per_value: int = 4
) -> int:
    """The reference, after ``bytes_per_value in (1, 2, 4, 8)``."""
    sizes = _logits_bytes(batch, length, vocab, bytes_per_value)
    if sizes[3] not in (1, 2, 4, 8):
        raise ValueError(f"bytes_per_value must be 1, 2, 4 or 8, got {sizes[3]}")
    return sizes[0] * sizes[1] * sizes[2] * sizes[3]


@mistake(
    "logits-sizes-at-least-1",
    replaces="logits_memory_bytes",
    explanation={
        "zh": "要求 batch、length、vocab 都 ≥ 1：大小为 0 被拒绝，而约定里 0 是有效的（0 字节）",
        "en": (
            "requires batch, length and vocab to be ≥ 1: a size of 0 is refused, where the "
            "contract takes it (0 bytes)"
        ),
    },
    where=_where(STAGE7),
)
def logits_memory_positive_sizes(
    batch: int, length: int, vocab: int, bytes_per_value: int = 4
) -> int:
    """Every size >= 1."""
    sizes = _logits_bytes(batch, length, vocab, bytes_per_value, minimum=1)
    return sizes[0] * sizes[1] * sizes[2] * sizes[3]


# -- stage 2 beyond: FlashAttention, linear attention, MoE ---------------------------------------
@mistake(
    "flash-max-starts-at-zero",
    replaces="flash_attention",
    explanation={
        "zh": "运行最大值从 0 而不是 −∞ 开始：所有分数远小于 0 时 exp(s − 0) 全部下溢为 0，得到 0/0 = NaN",
        "en": (
            "starts the running max at 0 instead of −∞: when every score is far below 0, "
            "exp(s − 0) underflows to 0 everywhere and 0/0 = NaN"
        ),
    },
    where=_where(STAGE2_BEYOND),
)
def flash_attention_max_from_zero(q: Array, k: Array, v: Array, block: int) -> Array:
    """m = 0 before the first key tile."""
    return _flash(q, k, v, block, start=0.0)


@mistake(
    "flash-mask-finfo-min",
    replaces="flash_attention",
    explanation={
        "zh": "块内的未来填 np.finfo(np.float64).min 而不是 −∞：分数在那个最小值附近时未来分到权重",
        "en": (
            "fills the future inside a tile with np.finfo(np.float64).min instead of −∞: where "
            "the scores sit near that minimum the future gets weight"
        ),
    },
    where=_where(STAGE2_BEYOND),
)
def flash_attention_finfo_min(q: Array, k: Array, v: Array, block: int) -> Array:
    """masked_fill with the most negative float64 in the diagonal tile."""
    return _flash(q, k, v, block, fill=float(np.finfo(np.float64).min))


@mistake(
    "flash-dv0-accepted",
    replaces="flash_attention",
    explanation={
        "zh": "不检查 d_v ≥ 1：形状为 (T, 0) 的 v 得到 (T, 0) 的输出，而约定是 ValueError",
        "en": "does not check d_v ≥ 1: a v of shape (T, "
        "0) gives a (T, 0) output instead of a ValueError",
    },
    where=_where(STAGE2_BEYOND),
)
def flash_attention_empty_v(q: Array, k: Array, v: Array, block: int) -> Array:
    """The shape checks without v's width."""
    return _flash(q, k, v, block, empty_v=True)


@mistake(
    "linear-scaled-q",
    replaces="linear_attention",
    explanation={
        "zh": "像 softmax attention 那样把 q 除以 √d 再算 φ：约定的线性注意力不缩放 q 或 k",
        "en": (
            "divides q by √d before φ, as softmax attention scales its scores: the contract's "
            "linear attention scales neither q nor k"
        ),
    },
    where=_where(STAGE2_BEYOND),
)
def linear_attention_scaled_q(q: Array, k: Array, v: Array) -> Array:
    """φ(q / √d)."""
    return _linear(q, k, v, phi="scaled-q")


@mistake(
    "linear-phi-exp",
    replaces="linear_attention",
    explanation={
        "zh": "特征映射用 φ(x) = eˣ 而不是 elu(x) + 1：正的 x 上两者不同，x 大到约 700 时 eˣ 溢出",
        "en": (
            "uses φ(x) = eˣ instead of elu(x) + 1: they differ for positive x, and eˣ overflows "
            "for x above about 700"
        ),
    },
    where=_where(STAGE2_BEYOND),
)
def linear_attention_exp(q: Array, k: Array, v: Array) -> Array:
    """φ = exp."""
    return _linear(q, k, v, phi="exp")


@mistake(
    "moe-ties-higher-index",
    replaces="moe_layer",
    explanation={
        "zh": "把升序 argsort 反过来取前 k 个：路由分数在 top-k 边界并列时保留了下标较大的专家，而约定是较小的",
        "en": (
            "reverses an ascending argsort for the top k: where router scores tie at the "
            "boundary the higher expert index is kept, where the contract keeps the lower"
        ),
    },
    where=_where(STAGE2_BEYOND),
)
def moe_layer_ties_higher(
    x: Array, w_router: Array, experts_w_in: Array, experts_w_out: Array, top_k: int
) -> Array:
    """argsort(scores)[:, ::-1][:, :k]."""
    return _moe(x, w_router, experts_w_in, experts_w_out, top_k, ties="higher")


@mistake(
    "moe-gates-no-max",
    replaces="moe_layer",
    explanation={
        "zh": "门控的 softmax 之前没有减去保留分数的最大值：路由分数到 ±1e3 时 exp 溢出，得到 ∞/∞ = NaN",
        "en": (
            "does not subtract the kept scores' max before the gates' softmax: router scores of "
            "±1e3 overflow exp, and ∞/∞ = NaN"
        ),
    },
    where=_where(STAGE2_BEYOND),
)
def moe_layer_gates_unshifted(
    x: Array, w_router: Array, experts_w_in: Array, experts_w_out: Array, top_k: int
) -> Array:
    """exp(kept) / sum, without the max."""
    return _moe(x, w_router, experts_w_in, experts_w_out, top_k, gates="unshifted")


@mistake(
    "moe-top-k-unchecked",
    replaces="moe_layer",
    explanation={
        "zh": "不检查 top_k ≤ E：top_k 大于专家数时切片保留了全部 E 个专家（即 top_k = E），而约定是 ValueError",
        "en": (
            "does not check top_k ≤ E: a top_k above the number of experts keeps all E of them "
            "(top_k = E, as the slice gives), where the contract raises ValueError"
        ),
    },
    where=_where(STAGE2_BEYOND),
)
def moe_layer_top_k_unbounded(
    x: Array, w_router: Array, experts_w_in: Array, experts_w_out: Array, top_k: int
) -> Array:
    """top_k checked for ≥ 1 only."""
    return _moe(x, w_router, experts_w_in, experts_w_out, top_k, bound=False)


# -- stage 6: top-p and greedy decoding --------------------------------------------------------
def _top_p_steps(
    probs: Array,
    p: float,
    *,
    rank: str = "lower-first",
    before: str = "running",
    one: str = "all",
    rescale: str = "largest-first",
    finite: str = "each",
    zeros: str = "refuse",
) -> Array:
    """The reference's top-p with one step done another way (see each twin)."""
    q = np.asarray(probs, dtype=np.float64)
    if q.ndim != 1 or q.shape[0] == 0:
        raise ValueError(f"probs must be a non-empty vector, got shape {q.shape}")
    with np.errstate(over="ignore", invalid="ignore"):
        finite_ok = np.all(np.isfinite(q)) if finite == "each" else bool(np.isfinite(q.sum()))
    if not finite_ok or np.any(q < 0):
        raise ValueError("probs must be finite and non-negative")
    if isinstance(p, bool) or not isinstance(p, int | float | np.floating | np.integer):
        raise ValueError(f"p must be a number in (0, 1], got {p!r}")
    if not (math.isfinite(float(p)) and 0.0 < float(p) <= 1.0):
        raise ValueError(f"p must be in (0, 1], got {p}")
    if zeros == "uniform" and not q.any():
        return np.full(q.shape[0], 1.0 / q.shape[0])
    order = (
        np.argsort(q, kind="stable")[::-1]
        if rank == "higher-first"
        else np.argsort(-q, kind="stable")
    )
    ranked = q[order]
    with np.errstate(over="ignore", invalid="ignore"):
        if before == "running":
            mass = np.concatenate(([0.0], np.cumsum(ranked)[:-1]))
        elif before == "inclusive":
            mass = np.cumsum(ranked)
        elif before == "minus-self":
            mass = np.cumsum(ranked) - ranked
        elif before == "float32":
            mass = np.concatenate(([0.0], np.cumsum(ranked.astype(np.float32))[:-1]))
        else:  # "fsum": each prefix exactly rounded
            mass = np.array([math.fsum(ranked[:i]) for i in range(ranked.shape[0])])
    keep = order if one == "all" and float(p) >= 1.0 else order[mass < float(p)]
    out = np.zeros_like(q)
    out[keep] = q[keep]
    if rescale == "largest-first":
        return _rescaled(out, "the kept probabilities sum to 0; nothing to renormalize")
    if not out.max() > 0:
        raise ValueError("the kept probabilities sum to 0; nothing to renormalize")
    with np.errstate(over="ignore"):
        result: Array = out / out.sum()
    return result


def _top_p_mistake(name: str, zh: str, en: str, **how: str) -> Callable[[Array, float], Array]:
    def top_p_renormalize(probs: Array, p: float) -> Array:
        return _top_p_steps(probs, p, **how)

    top_p_renormalize.__name__ = top_p_renormalize.__qualname__ = name.replace("-", "_")
    top_p_renormalize.__doc__ = en
    return mistake(
        name, replaces="top_p_renormalize", explanation={"zh": zh, "en": en}, where=_where(STAGE6)
    )(top_p_renormalize)


top_p_drops_crossing_token = _top_p_mistake(
    "top-p-drops-crossing-token",
    "用包含自己在内的累加和与 p 比较：把质量推过 p 的那个 token 被丢掉了（p 很小时一个都不剩），而约定保留它",
    "compares the running sum including the token itself with p: the token that carries the "
    "mass past p is dropped (and at a small p nothing is left), where the contract keeps it",
    before="inclusive",
)
top_p_ties_higher_index = _top_p_mistake(
    "top-p-ties-higher-index",
    "把升序 argsort 反过来排名：概率并列时下标较大的排在前面，而约定是较小的在前",
    "reverses an ascending argsort to rank the tokens: at a tie the higher index comes first, "
    "where the contract puts the lower first",
    rank="higher-first",
)
top_p_sum_minus_self = _top_p_mistake(
    "top-p-sum-minus-self",
    "一个 token 之前的质量写成 cumsum − 自己：舍入与运行和不同，p 恰好等于最高概率时多保留了一个",
    "takes the mass before a token as cumsum − itself: it rounds differently from the running "
    "sum, and p equal to the top probability keeps one token more",
    before="minus-self",
)
top_p_float32_running_sum = _top_p_mistake(
    "top-p-float32-running-sum",
    "运行和在 float32 里累加："
    "p 距某个前缀和在 1e-9 以内时落在错误的一侧（[0.3, 0.3, 0.2, 0.2] 在 p = 0.6 + 1e-9 时只保留 2 个）",
    "sums the running mass in float32: a p within 1e-9 of a prefix sum lands on the wrong side "
    "([0.3, 0.3, 0.2, 0.2] at p = 0.6 + 1e-9 keeps 2 tokens instead of 3)",
    before="float32",
)
top_p_divides_by_inf_sum = _top_p_mistake(
    "top-p-divides-by-inf-sum",
    "直接除以保留项之和：和溢出为 ∞ 时结果全是 0（p = 1 时的 [1e308, 1e308, 1]），而约定先除以最大的一项",
    "divides by the kept entries' sum as it is: when it overflows to ∞ the result is all 0 "
    "([1e308, 1e308, 1] at p = 1), where the contract divides by the largest first",
    rescale="sum",
)
top_p_zeros_give_uniform = _top_p_mistake(
    "top-p-zeros-give-uniform",
    "probs 全为 0 时返回均匀分布，而约定（与 top-k 一样）是 ValueError：没有可以重新缩放的东西",
    "answers probs that are all 0 with a uniform distribution, where the contract (as top-k) "
    "raises ValueError: there is nothing to rescale",
    zeros="uniform",
)
top_p_fsum_prefix = _top_p_mistake(
    "top-p-fsum-prefix",
    "一个 token 之前的质量用精确舍入的 math.fsum 而不是顺序累加的 float64 运行和："
    "p = 0.9 时 [0.4, 0.3, 0.2, 0.1] 只保留 3 个（运行和 0.8999999999999999 保留 4 个）",
    "takes the mass before a token as an exactly rounded math.fsum instead of the sequential "
    "float64 running sum: p = 0.9 over [0.4, 0.3, 0.2, 0.1] keeps 3 tokens (the running sum "
    "0.8999999999999999 keeps 4)",
    before="fsum",
)
top_p_one_by_running_sum = _top_p_mistake(
    "top-p-one-by-running-sum",
    "p = 1 时也按运行和与 p 比较：运行和舍入到 1 以上或溢出时丢掉了最后的 token，而约定 p = 1 保留全部",
    "compares the running sum with p at p = 1 too: where the sum rounds above 1 or overflows "
    "the last tokens are dropped, where the contract's p = 1 keeps every token",
    one="by-sum",
)
top_p_finite_via_sum = _top_p_mistake(
    "top-p-finite-via-sum",
    "用 isfinite(sum) 检查 probs 是否有限：和会溢出的有限 probs（[1e308, 1e308, 0]）被拒绝，而约定要逐个元素检查",
    "tests the probs' sum for finiteness: finite probs whose sum overflows ([1e308, 1e308, 0]) "
    "are refused, where the contract tests each entry",
    finite="sum",
)


def _greedy_steps(logits: Array, *, ties: str = "lowest", cast: str = "", nan: str = "any") -> int:
    z = np.asarray(logits)
    if z.dtype.kind not in "biuf":
        z = np.asarray(logits, dtype=np.float64)
    if z.ndim != 1 or z.shape[0] == 0:
        raise ValueError(f"logits must be a non-empty vector, got shape {z.shape}")
    if nan == "any":
        has_nan = z.dtype.kind == "f" and bool(np.any(np.isnan(z)))
    elif nan == "float64":
        has_nan = z.dtype == np.float64 and bool(np.any(np.isnan(z)))
    else:  # "sum"
        with np.errstate(invalid="ignore", over="ignore"):
            has_nan = z.dtype.kind == "f" and bool(np.isnan(z.sum()))
    if has_nan:
        raise ValueError("logits contain NaN; no token ranks first")
    if cast:
        z = z.astype(cast)
    if ties == "highest":
        return int(z.shape[0] - 1 - np.argmax(z[::-1]))
    return int(np.argmax(z))


def _greedy_mistake(name: str, zh: str, en: str, **how: str) -> Callable[[Array], int]:
    def greedy_token(logits: Array) -> int:
        return _greedy_steps(logits, **how)

    greedy_token.__name__ = greedy_token.__qualname__ = name.replace("-", "_")
    greedy_token.__doc__ = en
    return mistake(
        name, replaces="greedy_token", explanation={"zh": zh, "en": en}, where=_where(STAGE6)
    )(greedy_token)


greedy_last_of_ties = _greedy_mistake(
    "greedy-last-of-ties",
    "最大值并列时返回最后一个下标，而约定是最小的下标",
    "returns the last index where the largest logits tie, where the contract returns the lowest",
    ties="highest",
)
greedy_float32_cast = _greedy_mistake(
    "greedy-float32-cast",
    "先把 logits 转成 float32 再比较：[1, 1 + 1e-12] 在 float32 里并列，得到 0 而不是 1",
    "casts the logits to float32 before comparing: [1, 1 + 1e-12] tie in float32 and give 0 "
    "instead of 1",
    cast="float32",
)
greedy_float64_cast = _greedy_mistake(
    "greedy-float64-cast",
    "先把 logits 转成 float64 再比较：int64 的 [2**53, 2**53 + 1] 在 float64 里并列，得到 0 而不是 1",
    "casts the logits to float64 before comparing: int64 [2**53, 2**53 + 1] tie in float64 and "
    "give 0 instead of 1",
    cast="float64",
)
greedy_nan_float64_only = _greedy_mistake(
    "greedy-nan-float64-only",
    "只在 float64 的 logits 里找 NaN：float16、float32（或 long double）的 NaN 没被拒绝，argmax 返回了"
    " NaN 的下标",
    "looks for NaN in float64 logits only: a NaN in float16 or float32 (or long double) logits is "
    "not refused, and argmax returns its index",
    nan="float64",
)
greedy_nan_via_sum = _greedy_mistake(
    "greedy-nan-via-sum",
    "用 isnan(sum) 找 NaN：同时有 +inf 与 −inf 的 logits（和为 NaN）被拒绝，而约定里 +inf 排第一",
    "looks for NaN in the logits' sum: logits holding both +inf and −inf (whose sum is NaN) "
    "are refused, where the contract ranks +inf first",
    nan="sum",
)


# -- stage 3: the other per-position blocks ----------------------------------------------------
def _layer_norm_steps(
    x: Array, gain: Array, bias: Array, eps: float, *, shapes: str, variance: str, sqrt: str
) -> Array:
    x = np.asarray(x, dtype=np.float64)
    gain = np.asarray(gain, dtype=np.float64)
    bias = np.asarray(bias, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError(f"need x (T, d), gain (d,), bias (d,); got {x.shape}")
    d = x.shape[1]
    if shapes == "size":
        fits = gain.size == d and bias.size == d
    elif shapes == "broadcast":
        fits = gain.shape in ((d,), (1,)) and bias.shape in ((d,), (1,))
    else:
        fits = gain.shape == (d,) and bias.shape == (d,)
    if not fits:
        raise ValueError(
            f"need x (T, d), gain (d,), bias (d,); got {x.shape}, {gain.shape}, {bias.shape}"
        )
    if not eps > 0:
        raise ValueError(f"eps must be > 0, got {eps}")
    mean = x.mean(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        if variance == "unbiased":
            var = ((x - mean) ** 2).sum(axis=1, keepdims=True) / (d - 1)
        elif variance == "one-pass":
            var = (x**2).mean(axis=1, keepdims=True) - mean**2
        else:
            var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
        scale = np.sqrt(var) + eps if sqrt == "outside" else np.sqrt(var + eps)
        out: Array = (x - mean) / scale * gain + bias
    return out


def _layer_norm_mistake(name: str, zh: str, en: str, **how: str) -> Callable[..., Array]:
    settings = {"shapes": "shape", "variance": "biased", "sqrt": "inside", **how}

    def layer_norm(x: Array, gain: Array, bias: Array, eps: float = 1e-5) -> Array:
        return _layer_norm_steps(x, gain, bias, eps, **settings)

    layer_norm.__name__ = layer_norm.__qualname__ = name.replace("-", "_")
    layer_norm.__doc__ = en
    return mistake(
        name, replaces="layer_norm", explanation={"zh": zh, "en": en}, where=_where(STAGE3)
    )(layer_norm)


layer_norm_unbiased_variance = _layer_norm_mistake(
    "layer-norm-unbiased-variance",
    "方差用无偏估计（除以 d − 1）：与 GPT-2 的有偏方差不同，d = 1 时除以 0",
    "takes the unbiased variance (divided by d − 1): not GPT-2's biased one, and a division by "
    "0 at d = 1",
    variance="unbiased",
)
layer_norm_one_pass_variance = _layer_norm_mistake(
    "layer-norm-one-pass-variance",
    "方差按一遍公式 E[x²] − μ² 计算：特征在 1e4 附近时抵消掉有效数字，相对误差约 3e-8；约定取中心化之后"
    "的 mean((x − μ)²)",
    "computes the variance in one pass, E[x²] − μ²: for features near 1e4 it cancels digits and "
    "is off by about 3e-8 relative, where the contract takes the centred row's mean((x − μ)²)",
    variance="one-pass",
)
layer_norm_eps_outside_sqrt = _layer_norm_mistake(
    "layer-norm-eps-outside-sqrt",
    "eps 加在了平方根外面（√var + eps），而约定（与 GPT-2 一样）加在方差上、在平方根里面",
    "adds eps outside the square root (√var + eps), where the contract, as GPT-2, adds it to "
    "the variance inside the root",
    sqrt="outside",
)
layer_norm_broadcasts = _layer_norm_mistake(
    "layer-norm-broadcasts",
    "接受形状为 (1,) 的 gain 或 bias 并广播到每个特征，而约定什么都不广播",
    "accepts a gain or bias of shape (1,) and broadcasts it to every feature, where the "
    "contract broadcasts nothing",
    shapes="broadcast",
)
layer_norm_size_not_shape = _layer_norm_mistake(
    "layer-norm-size-not-shape",
    "只检查 gain、bias 的大小是 d，不检查形状：(1, d) 的 gain 被接受，而约定要求形状 (d,)",
    "checks that gain and bias have d entries, not their shape: a gain of shape (1, d) is "
    "accepted, where the contract requires the shape (d,)",
    shapes="size",
)


def _embedding_steps(tokens: NDArray[np.integer], table: Array, *, ids: str) -> Array:
    got = np.asarray(tokens)
    if ids == "cast-floats" and got.dtype.kind == "f" and got.size:
        got = got.astype(np.int64)  # 1.7 -> 1, 2.0 -> 2
    keep_dtype = ids == "table-dtype"
    rows = np.asarray(table) if keep_dtype else np.asarray(table, dtype=np.float64)
    if rows.ndim != 2:
        raise ValueError(f"table must be (V, d), got {rows.shape}")
    integer = np.issubdtype(got.dtype, np.integer) or (ids == "bools" and got.dtype == np.bool_)
    shape_ok = got.ndim <= 1 if ids == "scalar" else got.ndim == 1
    empty_ok = got.size == 0 and ids != "empty-typed"
    if not shape_ok or not (empty_ok or integer):
        raise ValueError(f"tokens must be a vector of integer ids, got {got.dtype} {got.shape}")
    low_ok = ids == "negative" or not got.size or got.min() >= 0
    if got.size and (not low_ok or got.max() >= rows.shape[0]):
        raise ValueError(f"token ids must be in 0..{rows.shape[0] - 1}")
    if got.size == 0:
        return np.zeros((0, rows.shape[1]), dtype=rows.dtype)
    out: Array = rows[got]
    return out


def _embedding_mistake(name: str, zh: str, en: str, ids: str) -> Callable[..., Array]:
    def embedding_lookup(tokens: NDArray[np.integer], table: Array) -> Array:
        return _embedding_steps(tokens, table, ids=ids)

    embedding_lookup.__name__ = embedding_lookup.__qualname__ = name.replace("-", "_")
    embedding_lookup.__doc__ = en
    return mistake(
        name, replaces="embedding_lookup", explanation={"zh": zh, "en": en}, where=_where(STAGE3)
    )(embedding_lookup)


embedding_float_ids_cast = _embedding_mistake(
    "embedding-float-ids-cast",
    "把浮点 id 转成整数（1.7 变成 1）再查表，而约定拒绝浮点 id，从不舍入或转换",
    "casts float ids to integers (1.7 becomes 1) and looks them up, where the contract refuses "
    "float ids, never rounding or casting them",
    "cast-floats",
)
embedding_bool_ids_accepted = _embedding_mistake(
    "embedding-bool-ids-accepted",
    "接受布尔数组作为 id：NumPy 把它当作掩码，而约定说布尔数组是掩码、不是 id，要 ValueError",
    "accepts a boolean array as ids, which NumPy reads as a mask, where the contract says a "
    "boolean array is a mask, not ids, and raises ValueError",
    "bools",
)
embedding_scalar_id_accepted = _embedding_mistake(
    "embedding-scalar-id-accepted",
    "接受 0 维的 id（np.int64(3)），返回一行 (d,)，而约定要求 id 是向量 (T,)",
    "accepts a 0-d id (np.int64(3)) and returns one row (d,), where the contract requires a "
    "vector of ids (T,)",
    "scalar",
)
embedding_empty_float_refused = _embedding_mistake(
    "embedding-empty-float-refused",
    "拒绝空的浮点向量（np.array([])、[]），而约定里空向量就是 T = 0，不论类型，返回 (0, d)",
    "refuses an empty float vector (np.array([]), []), where the contract reads any empty "
    "vector as T = 0 and returns (0, d)",
    "empty-typed",
)
embedding_negative_ids_wrap = _embedding_mistake(
    "embedding-negative-ids-wrap",
    "不检查 id ≥ 0：负的 id 按 NumPy 的负下标读到表的末尾几行，而约定是 ValueError",
    "does not check ids ≥ 0: a negative id reads a row from the end (NumPy's negative index), "
    "where the contract raises ValueError",
    "negative",
)
embedding_keeps_table_dtype = _embedding_mistake(
    "embedding-keeps-table-dtype",
    "行保持 table 自己的类型（float32、整数），而约定是 float64 的行",
    "returns the rows in the table's own dtype (float32, integers), where the contract's rows "
    "are float64",
    "table-dtype",
)


@mistake(
    "output-head-width-broadcast",
    replaces="output_head",
    explanation={
        "zh": "用逐元素相乘再求和算 logits：宽度为 1 的一边被广播，而约定要求两边宽度相同、什么都不广播",
        "en": (
            "computes the logits by an elementwise product and a sum: a side of width 1 is "
            "broadcast, where the contract requires equal widths and broadcasts nothing"
        ),
    },
    where=_where(STAGE3),
)
def output_head_broadcasting(h: Array, table: Array) -> Array:
    """(h[:, None, :] * table[None, :, :]).sum(-1), whose widths broadcast."""
    hs = np.asarray(h, dtype=np.float64)  # (T, d)
    rows = np.asarray(table, dtype=np.float64)  # (V, d)
    if hs.ndim != 2 or rows.ndim != 2 or hs.shape[1] == rows.shape[1]:
        return _blocks.output_head(h, table)  # equal widths (or not matrices): the reference
    if 1 not in (hs.shape[1], rows.shape[1]):
        raise ValueError(f"need h (T, d) and table (V, d); got {hs.shape}, {rows.shape}")
    out: Array = (hs[:, None, :] * rows[None, :, :]).sum(axis=-1)  # (T, V), a width of 1 spread
    return out


@mistake(
    "sinusoidal-halves",
    replaces="sinusoidal_positions",
    explanation={
        "zh": '前一半放正弦、后一半放余弦，而约定（"Attention Is All You Need"）是交错的：偶数列正弦、奇数列余弦',
        "en": (
            "puts the sines in the first half and the cosines in the second, where the contract "
            '("Attention Is All You Need") interleaves them: sines in the even columns, cosines '
            "in the odd ones"
        ),
    },
    where=_where(STAGE3),
)
def sinusoidal_two_halves(length: int, d_model: int) -> Array:
    """[sin | cos] instead of interleaved."""
    pe = _positions.sinusoidal_positions(length, d_model)  # (T, d), interleaved
    return np.concatenate([pe[:, 0::2], pe[:, 1::2]], axis=1)


@mistake(
    "rotary-rotate-half",
    replaces="rotary_embedding",
    explanation={
        "zh": "按 rotate-half 的排列把第 i 维与第 i + hs/2 维配对旋转，而约定（RoFormer）旋转相邻的一对 (2i, 2i+1)",
        "en": (
            "rotates feature i with feature i + hs/2 (the rotate-half layout), where the contract "
            "(RoFormer) rotates the adjacent pairs (2i, 2i+1)"
        ),
    },
    where=_where(STAGE3),
)
def rotary_halves(x: Array, offset: int = 0) -> Array:
    """The pairs (i, i + hs/2)."""
    xs = np.asarray(x, dtype=np.float64)
    if xs.ndim != 2:
        raise ValueError(f"x must be (T, hs), got {xs.shape}")
    hs = xs.shape[1]
    _positions._frequencies(hs)  # odd or zero widths refused, as the reference refuses them
    interleave = np.empty(hs, dtype=np.int64)  # column i of the halves layout, pair by pair
    interleave[0::2], interleave[1::2] = np.arange(hs // 2), np.arange(hs // 2) + hs // 2
    rotated = _positions.rotary_embedding(xs[:, interleave], offset)
    out = np.empty_like(rotated)
    out[:, interleave] = rotated
    return out


@mistake(
    "rotary-positions-float32",
    replaces="rotary_embedding",
    explanation={
        "zh": "位置 offset + t 用 float32 计算：超过 2^24 时位置被舍入（2^24 + 1 变成 2^24），而约定用 float64",
        "en": (
            "computes the positions offset + t in float32: past 2^24 they round (2^24 + 1 "
            "becomes 2^24), where the contract uses float64"
        ),
    },
    where=_where(STAGE3),
)
def rotary_float32_positions(x: Array, offset: int = 0) -> Array:
    """(offset + arange(T, dtype=float32)) as the positions."""
    xs = np.asarray(x, dtype=np.float64)
    if xs.ndim != 2:
        raise ValueError(f"x must be (T, hs), got {xs.shape}")
    if isinstance(offset, bool) or not isinstance(offset, int | np.integer) or offset < 0:
        raise ValueError(f"offset must be an integer >= 0, got {offset!r}")
    t_len, hs = xs.shape
    omega = _positions._frequencies(hs)
    positions = (np.float32(offset) + np.arange(t_len, dtype=np.float32)).astype(np.float64)
    angles = positions[:, None] * omega
    cos, sin = np.cos(angles), np.sin(angles)
    even, odd = xs[:, 0::2], xs[:, 1::2]
    out = np.empty_like(xs)
    out[:, 0::2] = even * cos - odd * sin
    out[:, 1::2] = even * sin + odd * cos
    return out


@mistake(
    "rotary-numpy-offset-unchecked",
    replaces="rotary_embedding",
    explanation={
        "zh": "只对 Python int 检查 offset ≥ 0：np.int64(-1) 不被拒绝，整段序列旋转到了位置 −1 起",
        "en": (
            "checks offset ≥ 0 for Python ints only: np.int64(-1) is not refused, and the "
            "sequence is rotated as if it started at position −1"
        ),
    },
    where=_where(STAGE3),
)
def rotary_numpy_offset(x: Array, offset: int = 0) -> Array:
    """The offset's minimum checked on Python ints only."""
    if not (isinstance(offset, np.integer) and offset < 0):
        return _positions.rotary_embedding(x, offset)
    xs = np.asarray(x, dtype=np.float64)  # (T, hs)
    if xs.ndim != 2:
        raise ValueError(f"x must be (T, hs), got {xs.shape}")
    t_len, hs = xs.shape
    omega = _positions._frequencies(hs)  # (hs/2,)
    angles = (int(offset) + np.arange(t_len, dtype=np.float64))[:, None] * omega  # from −1 on
    cos, sin = np.cos(angles), np.sin(angles)
    even, odd = xs[:, 0::2], xs[:, 1::2]
    out = np.empty_like(xs)
    out[:, 0::2] = even * cos - odd * sin
    out[:, 1::2] = even * sin + odd * cos
    return out


# -- stage 7: the KV cache ---------------------------------------------------------------------
def _kv_sizes(
    batch: int, length: int, n_layer: int, d_model: int, bytes_per_value: int, *, minimum: int
) -> tuple[int, ...]:
    return (
        _cache._count("batch", batch, minimum),
        _cache._count("length", length, minimum),
        _cache._count("n_layer", n_layer, minimum),
        _cache._count("d_model", d_model, minimum),
        _cache._count("bytes_per_value", bytes_per_value, 1),
    )


@mistake(
    "kv-cache-keys-only",
    replaces="kv_cache_bytes",
    explanation={
        "zh": "只算了键，没算值：少了因子 2",
        "en": "counts the keys and forgets the values: the factor 2 is missing",
    },
    where=_where(STAGE7),
)
def kv_cache_keys(
    batch: int, length: int, n_layer: int, d_model: int, bytes_per_value: int = 4
) -> int:
    """B·T·L·d·bytes."""
    return _cache.kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value) // 2


@mistake(
    "kv-cache-int64-product",
    replaces="kv_cache_bytes",
    explanation={
        "zh": "用 np.prod 在 int64 里求乘积：超过 2^63 时静默回绕，而约定是精确的 int",
        "en": "takes the product with np.prod in int64: past 2^63 it silently wraps around, "
        "where the contract's count is an exact int",
    },
    where=_where(STAGE7),
)
def kv_cache_int64(
    batch: int, length: int, n_layer: int, d_model: int, bytes_per_value: int = 4
) -> int:
    """np.prod of 2 and the five sizes, dtype int64."""
    sizes = _kv_sizes(batch, length, n_layer, d_model, bytes_per_value, minimum=0)
    return int(np.prod(np.array([2, *sizes], dtype=np.int64)))


@mistake(
    "kv-cache-common-sizes-only",
    replaces="kv_cache_bytes",
    explanation={
        "zh": "只接受 1、2、4、8 字节：bytes_per_value = 3 被拒绝，而约定接受任何 ≥ 1 的整数",
        "en": "accepts 1, 2, 4 or 8 bytes only: bytes_per_value = 3 is refused, where the "
        "contract takes any integer ≥ 1",
    },
    where=_where(STAGE7),
)
def kv_cache_common_sizes(
    batch: int, length: int, n_layer: int, d_model: int, bytes_per_value: int = 4
) -> int:
    """The reference, after ``bytes_per_value in (1, 2, 4, 8)``."""
    sizes = _kv_sizes(batch, length, n_layer, d_model, bytes_per_value, minimum=0)
    if sizes[4] not in (1, 2, 4, 8):
        raise ValueError(f"bytes_per_value must be 1, 2, 4 or 8, got {sizes[4]}")
    return _cache.kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value)


@mistake(
    "kv-cache-sizes-at-least-1",
    replaces="kv_cache_bytes",
    explanation={
        "zh": "要求 batch、length、n_layer、d_model 都 ≥ 1：大小为 0 被拒绝，而约定里 0 是有效的（0 字节）",
        "en": "requires batch, length, n_layer and d_model to be ≥ 1: a size of 0 is refused, "
        "where the contract takes it (0 bytes)",
    },
    where=_where(STAGE7),
)
def kv_cache_positive_sizes(
    batch: int, length: int, n_layer: int, d_model: int, bytes_per_value: int = 4
) -> int:
    """Every size >= 1."""
    _kv_sizes(batch, length, n_layer, d_model, bytes_per_value, minimum=1)
    return _cache.kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value)


# -- stage 7: BPE -----------------------------------------------------------------------------
def _bpe_loop(
    data: NDArray[np.uint8], vocab_size: int, *, ties: str, counting: str, stop: bool
) -> list[tuple[int, int]]:
    """Byte BPE that counts every adjacent pair afresh at each merge, as a plain learner's
    loop does (the reference's merges, by another algorithm), with the tie rule, the
    counting or the early stop done another way. Each recount is one NumPy pass over the
    tokens rather than a Python loop: a diagnosis replays this on the chapter's 22,391 bytes
    at V = 1,024 for each BPE twin (a Python loop took 3-5 s a call; this 0.2 s)."""
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int | np.integer):
        raise ValueError(f"vocab_size must be an integer, got {vocab_size!r}")
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be >= 256 (the byte tokens), got {vocab_size}")
    ids = np.array(_tokenizer._byte_values(data), dtype=np.int64)  # (N,) the current tokens
    # a pair's code left·base + right orders pairs as (left, right) does: every id is below
    # base (N merges at most, each making one id past 255)
    base = ids.size + 257
    merges: list[tuple[int, int]] = []
    while len(merges) < vocab_size - 256 and ids.size >= 2:
        left, right = ids[:-1], ids[1:]
        codes = left * base + right  # (N-1,) the pair starting at each position
        pairs, counts = np.unique(codes, return_counts=True)  # (P,) sorted, (P,) how often
        if counting == "non-overlapping":
            # in a run of k equal tokens only every second (a, a) counts: floor(k/2) of them
            equal = np.flatnonzero(left == right)
            skipped, times = np.unique(
                codes[equal[_run_offsets(equal) % 2 == 1]], return_counts=True
            )
            counts[np.searchsorted(pairs, skipped)] -= times
        most = counts.max()
        tied = pairs[counts == most]  # in (left, right) order
        if ties == "first-seen":  # max(counts, key=counts.get): the first met in the text
            tied = tied[:1] if tied.size == 1 else codes[np.isin(codes, tied)][:1]
        elif ties == "base-256":  # by left·256 + right, then the first met
            key = (tied // base) * 256 + tied % base
            tied = tied[key == key.min()]
            tied = tied[:1] if tied.size == 1 else codes[np.isin(codes, tied)][:1]
        pair = int(tied[0])
        if stop and most < 2:
            break
        # left to right: in a run of (a, a) occurrences every second one is already merged
        at = np.flatnonzero(codes == pair)
        at = at[_run_offsets(at) % 2 == 0]
        ids[at] = 256 + len(merges)
        ids = np.delete(ids, at + 1)
        merges.append((pair // base, pair % base))
    return merges


def _run_offsets(positions: NDArray[np.intp]) -> NDArray[np.intp]:
    """For sorted positions (M,): each one's distance from the start of its run of
    consecutive positions (3, 4, 5, 9, 10 -> 0, 1, 2, 0, 1)."""
    starts = np.ones(positions.size, dtype=bool)
    starts[1:] = positions[1:] != positions[:-1] + 1
    offsets: NDArray[np.intp] = positions - positions[starts][np.cumsum(starts) - 1]
    return offsets


def _bpe_mistake(name: str, zh: str, en: str, **how: Any) -> Callable[..., list[tuple[int, int]]]:
    settings: dict[str, Any] = {"ties": "smallest", "counting": "overlapping", "stop": True, **how}

    def bpe_train(data: NDArray[np.uint8], vocab_size: int) -> list[tuple[int, int]]:
        return _bpe_loop(data, vocab_size, **settings)

    bpe_train.__name__ = bpe_train.__qualname__ = name.replace("-", "_")
    bpe_train.__doc__ = en
    return mistake(
        name, replaces="bpe_train", explanation={"zh": zh, "en": en}, where=_where(STAGE7)
    )(bpe_train)


bpe_no_early_stop = _bpe_mistake(
    "bpe-no-early-stop",
    "没有哪一对出现两次时也继续合并：只出现一次的对被合并（只是改了名字），而约定在此提前停止",
    "keeps merging when no pair occurs twice: pairs seen once are merged (a mere renaming), "
    "where the contract stops there",
    stop=False,
)
bpe_ties_first_seen = _bpe_mistake(
    "bpe-ties-first-seen",
    "计数并列时取最先出现的那一对（max(counts, key=counts.get)），而约定取 (left, right) 最小的一对",
    "breaks ties in the counts by the pair seen first (max(counts, key=counts.get)), where "
    "the contract takes the smallest (left, right)",
    ties="first-seen",
)
bpe_ties_base_256 = _bpe_mistake(
    "bpe-ties-base-256",
    "并列时按 left·256 + right 比较：id 超过 255 后这个键不再是 (left, right) 的顺序（(1, 257) 与 (2, 1) 的键相同）",
    "compares tied pairs by left·256 + right: once ids pass 255 that key is no longer the "
    "(left, right) order ((1, 257) and (2, 1) get the same key)",
    ties="base-256",
)
bpe_non_overlapping_counts = _bpe_mistake(
    "bpe-non-overlapping-counts",
    '相邻对按不重叠的出现计数（"aaaa" 里 (a, a) 算 2 次），而约定按重叠的出现计数（3 次）',
    'counts a pair\'s non-overlapping occurrences ("aaaa" holds (a, a) twice), where the '
    "contract counts overlapping ones (three times)",
    counting="non-overlapping",
)


def _merges_checked(merges: Sequence[Sequence[int]], *, check: bool) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    for rank, merge in enumerate(merges):
        if len(merge) != 2:
            raise ValueError(f"merge {rank} must be a (left, right) pair, got {merge!r}")
        minimum = 0 if check else ANY_INT
        a = _integer(f"merges[{rank}][0]", merge[0], minimum)
        b = _integer(f"merges[{rank}][1]", merge[1], minimum)
        if check and not (a < 256 + rank and b < 256 + rank):
            raise ValueError(f"merge {rank} names a token that does not exist yet: {merge!r}")
        pairs.append((a, b))
    return pairs


def _replace(ids: list[int], pair: tuple[int, int], new: int, *, leftward: bool) -> list[int]:
    """Every occurrence of ``pair`` in ``ids`` replaced by ``new``, scanning left to right (or,
    ``leftward``, right to left)."""
    seq = ids[::-1] if leftward else ids
    first, second = (pair[1], pair[0]) if leftward else pair
    out, i = [], 0
    while i < len(seq):
        if i + 1 < len(seq) and seq[i] == first and seq[i + 1] == second:
            out.append(new)
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out[::-1] if leftward else out


@mistake(
    "bpe-encode-rank-dict",
    replaces="bpe_encode",
    explanation={
        "zh": (
            "用 {pair: rank} 字典、每次合并出现的 rank 最小的一对："
            "同一合并列了两次时字典保留了最后一次，生成了错误的 token"
        ),
        "en": (
            "merges the lowest-ranked pair present, through a {pair: rank} dict: a merge listed "
            "twice keeps its last rank there, and the wrong token is made"
        ),
    },
    where=_where(STAGE7),
)
def bpe_encode_rank_dict(data: NDArray[np.uint8], merges: Sequence[Sequence[int]]) -> NDArray[Any]:
    """GPT-2's loop: the lowest rank present, until no pair of the dict is left."""
    pairs = _merges_checked(merges, check=True)
    ranks = {pair: rank for rank, pair in enumerate(pairs)}  # a repeated pair keeps its last rank
    ids = _tokenizer._byte_values(data)
    while len(ids) > 1:
        present = [ranks[p] for p in itertools.pairwise(ids) if p in ranks]
        if not present:
            break
        rank = min(present)
        ids = _replace(ids, pairs[rank], 256 + rank, leftward=False)
    return np.asarray(ids, dtype=np.int64)


@mistake(
    "bpe-encode-unvalidated-merges",
    replaces="bpe_encode",
    explanation={
        "zh": (
            "不检查合并里的 id：负 id 或尚不存在的 token 不被拒绝（它们从不匹配，"
            "于是什么都不合并），而约定是 ValueError"
        ),
        "en": (
            "does not check the merges' ids: a negative id or a token not made yet is not "
            "refused (it never matches, so nothing is merged), where the contract raises "
            "ValueError"
        ),
    },
    where=_where(STAGE7),
)
def bpe_encode_unchecked(data: NDArray[np.uint8], merges: Sequence[Sequence[int]]) -> NDArray[Any]:
    """The merges replayed as given."""
    pairs = _merges_checked(merges, check=False)
    ids = _tokenizer._byte_values(data)
    for rank, pair in enumerate(pairs):
        ids = _replace(ids, pair, 256 + rank, leftward=False)
    return np.asarray(ids, dtype=np.int64)


@mistake(
    "bpe-encode-right-to-left",
    replaces="bpe_encode",
    explanation={
        "zh": '每次合并从右往左替换："aaa" 配 (a, a) 得到 [a, 256] 而不是 [256, a]',
        "en": 'replaces each merge\'s occurrences right to left: "aaa" with (a, a) gives [a, 256] '
        "instead of [256, a]",
    },
    where=_where(STAGE7),
)
def bpe_encode_leftward(data: NDArray[np.uint8], merges: Sequence[Sequence[int]]) -> NDArray[Any]:
    """Each merge scanned from the end."""
    pairs = _merges_checked(merges, check=True)
    ids = _tokenizer._byte_values(data)
    for rank, pair in enumerate(pairs):
        ids = _replace(ids, pair, 256 + rank, leftward=True)
    return np.asarray(ids, dtype=np.int64)
