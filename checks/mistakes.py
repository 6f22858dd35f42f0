"""Known learner mistakes: broken twins of the chapter's functions, beyond its fault table.

The chapter's fault table lives in :mod:`checks.faults`; these are the other mistakes people
make when they write the chapter's functions themselves: a scale forgotten, a softmax over
the wrong axis, heads laid out in the wrong columns, a mask off by one, temperature
multiplied, top-k with the wrong tie rule, a parameter count that ignores ``tied``, bits for
bytes, and so on. Each is the reference with the one line a person gets wrong, written the
way they write it, and registered with ``@mistake``: an explanation in both languages and
the chapter's fault-table row or stage it belongs to.

Each makes exactly one mistake: it checks its arguments as the reference does (with the
reference's own helpers, or the same lines where the reference writes them inline), computes
in the same order and dtype, and differs from it only where its explanation says. A second,
unintended difference would stop the diagnosis from naming a learner who made the mistake
alone; ``tests/test_diagnose.py`` runs every twin against the reference on the generators'
cases to keep it so.

Nothing injects these into a reference run. They are what :mod:`runner.diagnose` compares a
failing learner function with, call by call, to tell the learner which mistake they made.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from checks import twin_args as args
from checks.pack import mistake
from checks.reference import params as _params
from checks.reference._args import _integer, _shares
from checks.reference.attention import (
    _softmax_last,
    causal_masked_attention,
    position_wise_mlp,
)
from checks.reference.beyond import _elu_plus_one, _qkv
from checks.reference.params import Positions

Array = NDArray[np.float64]

STAGE1 = {
    "zh": "阶段一：V^T——为什么必须分解",
    "en": "stage 1: V^T, why the joint must be factorized",
}
STAGE2 = {
    "zh": "阶段二：巨型 MLP 假说——结构与灵活性的取舍",
    "en": "stage 2: the giant-MLP hypothesis, structure against flexibility",
}
STAGE2_BEYOND = {
    "zh": "阶段二：MoE、线性注意力与 FlashAttention 在结构—灵活性轴上的位置",
    "en": (
        "stage 2: where MoE, linear attention and FlashAttention sit on the structure–flexibility "
        "axis"
    ),
}
STAGE3 = {
    "zh": "阶段三：逐位置与跨位置——两条算子线",
    "en": "stage 3: per position and across positions, two lines of operators",
}
STAGE3_TABLE = {
    "zh": "阶段三：参数表（输出头在 embedding 共享时为 0）",
    "en": "stage 3: the parameter table (the output head is 0 when the embedding is tied)",
}
STAGE4 = {
    "zh": "阶段四：多头是同一算子的多组权重",
    "en": "stage 4: multi-head is one operator with several sets of weights",
}
STAGE5 = {
    "zh": "阶段五：因果掩码是删除加重归一化",
    "en": "stage 5: the causal mask is deletion plus renormalization",
}
STAGE6 = {
    "zh": "阶段六：温度与 top-k 是同一个向量上的两种手术",
    "en": "stage 6: temperature and top-k, two operations on one probability vector",
}
STAGE7 = {
    "zh": "阶段七：分词粒度如何变成账单（B×T×V×bytes）",
    "en": "stage 7: how tokenizer granularity becomes a bill (B×T×V×bytes)",
}
ROW_CONTEXT = {
    "zh": "故障表：参数记账里把上下文长度算进去",
    "en": "fault table: the context length counted into the parameter total",
}
ROW_MASK_ZERO = {
    "zh": "故障表：因果掩码用乘 0 而不是置 −∞（预期信号：整行 0/0，输出 NaN）",
    "en": (
        "fault table: the causal mask by multiplying by 0 instead of −∞ (expected signal: rows of "
        "0/0, NaN)"
    ),
}


def _gelu(h: Array) -> Array:
    """GELU in its tanh form, as the reference MLP uses it."""
    out: Array = 0.5 * h * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * h**3)))
    return out


def _softmax(z: NDArray[np.floating], axis: int = -1) -> Array:
    """softmax along ``axis``, the max subtracted first, in ``z``'s own dtype."""
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    out: Array = e / e.sum(axis=axis, keepdims=True)
    return out


# -- stage 1: the support and the chain rule ------------------------------------------------
@mistake(
    "support-natural-log",
    replaces="sequence_support_log10",
    explanation={
        "zh": "用自然对数 ln 代替 log10：T·ln V 比 T·log10 V 大 ln 10 ≈ 2.30 倍",
        "en": "takes the natural log instead of log10: T·ln V is ln 10 ≈ 2.30 times T·log10 V",
    },
    where=STAGE1,
)
def support_natural_log(vocab: int, length: int) -> float:
    """log V^T with math.log, which is ln, not log10."""
    vocab, length = args.sizes(vocab, length)
    return length * math.log(vocab)


@mistake(
    "support-t-to-the-v",
    replaces="sequence_support_log10",
    explanation={
        "zh": "把 V^T 写反成 T^V：底数与指数对调",
        "en": "writes V^T the wrong way round, as T^V: base and exponent swapped",
    },
    where=STAGE1,
)
def support_t_to_the_v(vocab: int, length: int) -> float:
    """log10 T^V: the exponent and the base swapped."""
    vocab, length = args.sizes(vocab, length)
    if length == 0:  # log10(0^V): the mistake has no value here (see MistakeUndefined)
        raise args.MistakeUndefined("log10(T^V) at T = 0 is log10 0")
    return vocab * math.log10(length)


@mistake(
    "support-float-power",
    replaces="sequence_support_log10",
    explanation={
        "zh": "先用浮点数算出 V^T 再取 log10：50257^1000 远超 float 的上限，OverflowError",
        "en": (
            "forms V^T as a float before taking log10: 50257^1000 is far past the largest float, "
            "OverflowError"
        ),
    },
    where=STAGE1,
)
def support_float_power(vocab: int, length: int) -> float:
    """log10 of V^T formed as a float first, which overflows long before T = 1000."""
    vocab, length = args.sizes(vocab, length)
    return math.log10(math.pow(vocab, length))


@mistake(
    "nll-log2",
    replaces="chain_rule_nll",
    explanation={
        "zh": "用 log2 求 NLL：单位成了比特，比自然对数的 nat 大 1/ln 2 ≈ 1.44 倍",
        "en": "takes the NLL with log2: bits instead of nats, 1/ln 2 ≈ 1.44 times too large",
    },
    where=STAGE1,
)
def chain_rule_nll_bits(joint: Array, tokens: list[int]) -> float:
    """The chain rule with math.log2 in place of the natural log."""
    joint, index = args.joint_and_tokens(joint, tokens)
    t_len = joint.ndim
    nll = 0.0
    prefix_mass = 1.0
    for t in range(1, t_len + 1):
        marginal = joint.sum(axis=tuple(range(t, t_len))) if t < t_len else joint  # (V,)*t
        mass = float(marginal[index[:t]])
        if mass == 0.0:  # a prefix the distribution never produces: probability 0
            return math.inf
        nll -= math.log2(mass / prefix_mass)
        prefix_mass = mass
    return nll


@mistake(
    "nll-positions-independent",
    replaces="chain_rule_nll",
    explanation={
        "zh": (
            "每个位置只用它自己的边缘分布 P(x_t)，没有以前缀 x_<t 为条件：那是独立性假设，不是链式"
            "法则"
        ),
        "en": (
            "uses each position's own marginal P(x_t), not conditioned on the prefix x_<t: an "
            "independence assumption, not the chain rule"
        ),
    },
    where=STAGE1,
)
def chain_rule_nll_marginals(joint: Array, tokens: list[int]) -> float:
    """Sums -log P(x_t) of each position's marginal, forgetting the condition on x_<t."""
    joint, index = args.joint_and_tokens(joint, tokens)
    t_len = joint.ndim
    nll = 0.0
    for t in range(t_len):
        others = tuple(a for a in range(t_len) if a != t)
        marginal = joint.sum(axis=others)  # (V,): P(x_t), whatever came before
        mass = float(marginal[index[t]])
        if mass == 0.0:  # a token the distribution never produces there: probability 0
            return math.inf
        nll -= math.log(mass)
    return nll


@mistake(
    "nll-sign",
    replaces="chain_rule_nll",
    explanation={
        "zh": "返回的是对数似然 log P 而不是负对数似然 −log P：符号反了",
        "en": (
            "returns the log-likelihood log P instead of the negative log-likelihood −log P: the "
            "sign is flipped"
        ),
    },
    where=STAGE1,
)
def chain_rule_log_likelihood(joint: Array, tokens: list[int]) -> float:
    """Adds log P(x_t | x_<t) where the NLL subtracts it (so an impossible sequence is −∞)."""
    joint, index = args.joint_and_tokens(joint, tokens)
    t_len = joint.ndim
    total = 0.0
    prefix_mass = 1.0
    for t in range(1, t_len + 1):
        marginal = joint.sum(axis=tuple(range(t, t_len))) if t < t_len else joint  # (V,)*t
        mass = float(marginal[index[:t]])
        if mass == 0.0:  # a prefix the distribution never produces: log 0
            return -math.inf
        total += math.log(mass / prefix_mass)
        prefix_mass = mass
    return total


# -- stage 2: the giant MLP and the averaging model -------------------------------------------
@mistake(
    "giant-mlp-widths-added",
    replaces="giant_mlp_parameter_log10",
    explanation={
        "zh": "把第一层的参数量算成输入宽度加隐藏宽度 V^T + hidden，而不是两者之积 V^T × hidden",
        "en": (
            "counts the first layer as input width plus hidden width, V^T + hidden, instead of "
            "their product V^T × hidden"
        ),
    },
    where=STAGE2,
)
def giant_mlp_widths_added(vocab: int, length: int, hidden: int) -> float:
    """log10(V^T + hidden) with Python's exact integers: the widths added, not multiplied."""
    hidden = _integer("hidden", hidden, 1)
    vocab, length = args.sizes(vocab, length)
    return math.log10(vocab**length + hidden)


@mistake(
    "average-whole-sequence",
    replaces="averaging_model",
    explanation={
        "zh": "对整个序列取平均（x.mean(axis=0)），而不是对前缀 0..t：每个位置都看到了未来",
        "en": (
            "averages the whole sequence (x.mean(axis=0)) instead of the prefix 0..t: every "
            "position sees the future"
        ),
    },
    where=STAGE2,
)
def averaging_whole_sequence(x: Array) -> Array:
    """One mean over all T positions, repeated at every position."""
    x = args.sequence(x)  # (T, d)
    out: Array = np.broadcast_to(x.mean(axis=0), x.shape).copy()  # (T, d)
    return out


@mistake(
    "average-prefix-sum",
    replaces="averaging_model",
    explanation={
        "zh": "前缀累加后没有除以 t+1：输出是前缀和，不是前缀平均",
        "en": "takes the running sum and never divides by t+1: a prefix sum, not a prefix mean",
    },
    where=STAGE2,
)
def averaging_prefix_sum(x: Array) -> Array:
    """np.cumsum over positions, without the division by the count."""
    x = args.sequence(x)  # (T, d)
    out: Array = np.cumsum(x, axis=0)  # (T, d)
    return out


@mistake(
    "average-count-off-by-one",
    replaces="averaging_model",
    explanation={
        "zh": "除数用了 0 起的下标 t 而不是个数 t+1：第 0 行除以 0，其余行偏大",
        "en": (
            "divides by the 0-based index t instead of the count t+1: row 0 divides by 0, every "
            "other row is too large"
        ),
    },
    where=STAGE2,
)
def averaging_count_from_zero(x: Array) -> Array:
    """Divides the prefix sum at t by t (np.arange(T)), not by t + 1."""
    x = args.sequence(x)  # (T, d)
    t_len = x.shape[0]
    counts = np.arange(t_len, dtype=np.float64)[:, None]  # (T, 1) 0, 1, 2, ...: one short
    out: Array = np.cumsum(x, axis=0) / counts
    return out


@mistake(
    "average-wrong-axis",
    replaces="averaging_model",
    explanation={
        "zh": "沿特征轴（axis=1）累加而不是沿位置轴（axis=0）",
        "en": "accumulates along the feature axis (axis=1) instead of along positions (axis=0)",
    },
    where=STAGE2,
)
def averaging_feature_axis(x: Array) -> Array:
    """np.cumsum(x, axis=1): the running sum over features, divided by the position's count."""
    x = args.sequence(x)  # (T, d)
    t_len = x.shape[0]
    counts = np.arange(1, t_len + 1, dtype=np.float64)[:, None]  # (T, 1)
    out: Array = np.cumsum(x, axis=1) / counts
    return out


# -- stage 3: the position-wise MLP ---------------------------------------------------------
@mistake(
    "mlp-no-nonlinearity",
    replaces="position_wise_mlp",
    explanation={
        "zh": "两层之间没有非线性：x·W_in·W_out 只是一个线性映射",
        "en": "no nonlinearity between the two layers: x·W_in·W_out is a single linear map",
    },
    where=STAGE3,
)
def mlp_linear(x: Array, w_in: Array, w_out: Array) -> Array:
    """The two matrix products with nothing between them."""
    x, w_in, w_out = args.mlp_weights(x, w_in, w_out)
    out: Array = (x @ w_in) @ w_out  # (T, d_out)
    return out


@mistake(
    "mlp-relu",
    replaces="position_wise_mlp",
    explanation={
        "zh": "用 ReLU 代替 GELU（tanh 形式，GPT-2 所用）",
        "en": "uses ReLU instead of GELU (the tanh form GPT-2 uses)",
    },
    where=STAGE3,
)
def mlp_relu(x: Array, w_in: Array, w_out: Array) -> Array:
    """max(0, h) where the reference applies GELU."""
    x, w_in, w_out = args.mlp_weights(x, w_in, w_out)
    h = np.maximum(x @ w_in, 0.0)  # (T, d_ff)
    out: Array = h @ w_out  # (T, d_out)
    return out


@mistake(
    "mlp-gelu-erf",
    replaces="position_wise_mlp",
    explanation={
        "zh": "用精确的 erf 形式 GELU，而约定是 tanh 近似形式（两者差到 1e-3 量级）",
        "en": (
            "uses the exact erf GELU where the contract is the tanh approximation (they differ by "
            "up to about 1e-3)"
        ),
    },
    where=STAGE3,
)
def mlp_gelu_erf(x: Array, w_in: Array, w_out: Array) -> Array:
    """GELU as x·Φ(x) with the error function, not the tanh form."""
    x, w_in, w_out = args.mlp_weights(x, w_in, w_out)
    h = x @ w_in  # (T, d_ff)
    erf = np.frompyfunc(math.erf, 1, 1)  # element by element: NumPy has no erf of its own
    h = 0.5 * h * (1.0 + np.asarray(erf(h / math.sqrt(2.0)), dtype=np.float64))
    out: Array = h @ w_out  # (T, d_out)
    return out


@mistake(
    "mlp-activation-after-output",
    replaces="position_wise_mlp",
    explanation={
        "zh": "把 GELU 放在第二层之后，而不是两层之间",
        "en": "applies GELU after the second layer instead of between the two",
    },
    where=STAGE3,
)
def mlp_activation_last(x: Array, w_in: Array, w_out: Array) -> Array:
    """gelu(x·W_in·W_out): the nonlinearity moved past the output projection."""
    x, w_in, w_out = args.mlp_weights(x, w_in, w_out)
    with np.errstate(over="ignore"):  # as the reference: h³ past 1e102 is ±inf, tanh ±1
        return _gelu((x @ w_in) @ w_out)  # (T, d_out)


# -- stage 5: the causal mask ---------------------------------------------------------------
@mistake(
    "mask-inf-times-zero",
    replaces="causal_masked_attention",
    explanation={
        "zh": "加性掩码写成 (1 − tril)·(−∞)：可见位置上 0·(−∞) = NaN，整个输出都是 NaN",
        "en": (
            "builds the additive mask as (1 − tril)·(−∞): 0·(−∞) = NaN on the visible positions, "
            "so the whole output is NaN"
        ),
    },
    where=ROW_MASK_ZERO,
)
def causal_mask_inf_times_zero(scores: Array) -> Array:
    """scores + (1 - tril) * -inf, where 0 * -inf is NaN on every visible position."""
    scores = args.scores(scores)
    t_len = scores.shape[-1]
    mask = (1.0 - np.tril(np.ones((t_len, t_len)))) * -np.inf  # NaN where tril is 1
    return _softmax_last(scores + mask)


@mistake(
    "mask-hides-diagonal",
    replaces="causal_masked_attention",
    explanation={
        "zh": "掩码多盖了对角线（triu k=0）：位置 t 看不到自己，第 0 行全是 −∞，得到 NaN",
        "en": (
            "the mask also hides the diagonal (triu with k=0): position t cannot see itself, and "
            "row 0 is all −∞, so NaN"
        ),
    },
    where=STAGE5,
)
def causal_mask_hides_diagonal(scores: Array) -> Array:
    """np.triu(..., k=0): the diagonal counted as future."""
    scores = args.scores(scores)
    t_len = scores.shape[-1]
    future = np.triu(np.ones((t_len, t_len), dtype=bool), k=0)  # (T, T), the diagonal too
    return _softmax_last(np.where(future, -np.inf, scores))


@mistake(
    "mask-one-future-visible",
    replaces="causal_masked_attention",
    explanation={
        "zh": "掩码少盖了一格（triu k=2）：位置 t 还能看到 t+1",
        "en": "the mask is one short (triu with k=2): position t still sees t+1",
    },
    where=STAGE5,
)
def causal_mask_one_ahead(scores: Array) -> Array:
    """np.triu(..., k=2): the position right after t stays visible."""
    scores = args.scores(scores)
    t_len = scores.shape[-1]
    future = np.triu(np.ones((t_len, t_len), dtype=bool), k=2)  # (T, T), misses s = t + 1
    return _softmax_last(np.where(future, -np.inf, scores))


@mistake(
    "mask-hides-past",
    replaces="causal_masked_attention",
    explanation={
        "zh": "掩码盖住了过去（tril k=−1）而不是未来：位置 t 只能看到 t..T−1",
        "en": (
            "the mask hides the past (tril with k=−1) instead of the future: position t sees only "
            "t..T−1"
        ),
    },
    where=STAGE5,
)
def causal_mask_hides_past(scores: Array) -> Array:
    """np.tril(..., k=-1) where np.triu(..., k=1) was meant."""
    scores = args.scores(scores)
    t_len = scores.shape[-1]
    hidden = np.tril(np.ones((t_len, t_len), dtype=bool), k=-1)  # (T, T), True where s < t
    return _softmax_last(np.where(hidden, -np.inf, scores))


@mistake(
    "mask-softmax-wrong-axis",
    replaces="causal_masked_attention",
    explanation={
        "zh": "softmax 沿查询轴（axis=−2，列）归一化，而不是沿键轴（axis=−1，行）",
        "en": (
            "normalizes the softmax along the query axis (axis=−2, columns) instead of the key "
            "axis (axis=−1, rows)"
        ),
    },
    where=STAGE5,
)
def causal_mask_column_softmax(scores: Array) -> Array:
    """The mask is right; the softmax runs down each column instead of along each row."""
    scores = args.scores(scores)
    t_len = scores.shape[-1]
    future = np.triu(np.ones((t_len, t_len), dtype=bool), k=1)
    return _softmax(np.where(future, -np.inf, scores), axis=-2)


@mistake(
    "mask-no-max-subtraction",
    replaces="causal_masked_attention",
    explanation={
        "zh": "softmax 前没有减去每行最大值：分数大于约 709 时 exp 溢出为 ∞，∞/∞ = NaN",
        "en": (
            "does not subtract each row's max before the softmax: scores above about 709 overflow "
            "exp to ∞, and ∞/∞ = NaN"
        ),
    },
    where=STAGE5,
)
def causal_mask_unshifted(scores: Array) -> Array:
    """exp(scores) straight away, without the max subtracted first."""
    scores = args.scores(scores)
    t_len = scores.shape[-1]
    future = np.triu(np.ones((t_len, t_len), dtype=bool), k=1)
    e = np.exp(np.where(future, -np.inf, scores))  # overflows for scores above ~709
    out: Array = e / e.sum(axis=-1, keepdims=True)
    return out


@mistake(
    "mask-finite-fill",
    replaces="causal_masked_attention",
    explanation={
        "zh": "未来位置填 −1e4 而不是 −∞：分数量级到 1e4 时未来重新分到权重",
        "en": (
            "fills the future with −1e4 instead of −∞: once scores reach the order of 1e4, the "
            "future gets weight again"
        ),
    },
    where=STAGE5,
)
def causal_mask_finite_fill(scores: Array) -> Array:
    """A 'large negative' -1e4 in place of -inf, as in fp16 code."""
    scores = args.scores(scores)
    t_len = scores.shape[-1]
    future = np.triu(np.ones((t_len, t_len), dtype=bool), k=1)
    return _softmax_last(np.where(future, -1e4, scores))


# -- stage 4: multi-head attention ----------------------------------------------------------
# Each twin is the reference's multi_head_attention written out again with the one line a
# person gets wrong; the mask is the reference's causal_masked_attention unless it is the
# mask that is forgotten.
@mistake(
    "mha-no-scale",
    replaces="multi_head_attention",
    explanation={
        "zh": "注意力分数没有除以 √hs：softmax 过尖",
        "en": "the attention scores are not divided by √hs: the softmax is too sharp",
    },
    where=STAGE4,
)
def mha_unscaled(x: Array, w_q: Array, w_k: Array, w_v: Array, w_o: Array, n_head: int) -> Array:
    """q·kᵀ straight into the softmax, with no 1/√hs."""
    x, w_q, w_k, w_v, w_o, n_head, hs = args.mha_weights(x, w_q, w_k, w_v, w_o, n_head)
    t_len = x.shape[0]
    q, k, v = ((x @ w).reshape(t_len, n_head, hs).transpose(1, 0, 2) for w in (w_q, w_k, w_v))
    scores = q @ k.transpose(0, 2, 1)  # (H, T, T), never divided by √hs
    heads = causal_masked_attention(scores) @ v  # (H, T, hs)
    out: Array = heads.transpose(1, 0, 2).reshape(t_len, n_head * hs) @ w_o
    return out


@mistake(
    "mha-scale-by-hs",
    replaces="multi_head_attention",
    explanation={
        "zh": "注意力分数除以 hs 而不是 √hs",
        "en": "divides the attention scores by hs instead of √hs",
    },
    where=STAGE4,
)
def mha_scaled_by_hs(
    x: Array, w_q: Array, w_k: Array, w_v: Array, w_o: Array, n_head: int
) -> Array:
    """q·kᵀ / hs: the square root forgotten."""
    x, w_q, w_k, w_v, w_o, n_head, hs = args.mha_weights(x, w_q, w_k, w_v, w_o, n_head)
    t_len = x.shape[0]
    q, k, v = ((x @ w).reshape(t_len, n_head, hs).transpose(1, 0, 2) for w in (w_q, w_k, w_v))
    scores = q @ k.transpose(0, 2, 1) / hs  # (H, T, T)
    heads = causal_masked_attention(scores) @ v  # (H, T, hs)
    out: Array = heads.transpose(1, 0, 2).reshape(t_len, n_head * hs) @ w_o
    return out


@mistake(
    "mha-scale-by-d-model",
    replaces="multi_head_attention",
    explanation={
        "zh": "用整个模型宽度 √d 缩放，而不是每个头的宽度 √hs = √(d/H)：只有 H = 1 时才一样",
        "en": (
            "scales by the model width √d instead of the head width √hs = √(d/H): the same only "
            "when H = 1"
        ),
    },
    where=STAGE4,
)
def mha_scaled_by_d_model(
    x: Array, w_q: Array, w_k: Array, w_v: Array, w_o: Array, n_head: int
) -> Array:
    """q·kᵀ / √d with d the model width, as in a one-head attention."""
    x, w_q, w_k, w_v, w_o, n_head, hs = args.mha_weights(x, w_q, w_k, w_v, w_o, n_head)
    t_len, d_model = x.shape
    q, k, v = ((x @ w).reshape(t_len, n_head, hs).transpose(1, 0, 2) for w in (w_q, w_k, w_v))
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_model)  # (H, T, T), d where hs belongs
    heads = causal_masked_attention(scores) @ v  # (H, T, hs)
    out: Array = heads.transpose(1, 0, 2).reshape(t_len, n_head * hs) @ w_o
    return out


@mistake(
    "mha-heads-interleaved",
    replaces="multi_head_attention",
    explanation={
        "zh": (
            "头的布局错了：reshape 成 (T, hs, H)，头 h 拿到的是相隔 H 的列，而不是连续的第 h 块 hs "
            "列"
        ),
        "en": (
            "the head layout is wrong: reshaped as (T, hs, H), head h takes every H-th column "
            "instead of the h-th contiguous block of hs columns"
        ),
    },
    where=STAGE4,
)
def mha_interleaved_heads(
    x: Array, w_q: Array, w_k: Array, w_v: Array, w_o: Array, n_head: int
) -> Array:
    """reshape(T, hs, H): heads are strided columns, not contiguous blocks."""
    x, w_q, w_k, w_v, w_o, n_head, hs = args.mha_weights(x, w_q, w_k, w_v, w_o, n_head)
    t_len = x.shape[0]
    # (T, hs, H): head h gets columns h, h+H, h+2H, ... instead of the block h*hs..(h+1)*hs
    q, k, v = ((x @ w).reshape(t_len, hs, n_head).transpose(2, 0, 1) for w in (w_q, w_k, w_v))
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(hs)  # (H, T, T)
    heads = causal_masked_attention(scores) @ v  # (H, T, hs)
    # merged back the same way, as strided columns
    out: Array = heads.transpose(1, 2, 0).reshape(t_len, n_head * hs) @ w_o
    return out


@mistake(
    "mha-merge-without-transpose",
    replaces="multi_head_attention",
    explanation={
        "zh": (
            "合并各头时直接把 (H, T, hs) reshape 成 (T, H·hs)，没有先转置：不同位置的行被拼在了一起"
        ),
        "en": (
            "merges the heads by reshaping (H, T, hs) straight to (T, H·hs) without transposing "
            "first: rows of different positions end up side by side"
        ),
    },
    where=STAGE4,
)
def mha_merge_without_transpose(
    x: Array, w_q: Array, w_k: Array, w_v: Array, w_o: Array, n_head: int
) -> Array:
    """heads.reshape(T, H*hs) on an (H, T, hs) array."""
    x, w_q, w_k, w_v, w_o, n_head, hs = args.mha_weights(x, w_q, w_k, w_v, w_o, n_head)
    t_len = x.shape[0]
    q, k, v = ((x @ w).reshape(t_len, n_head, hs).transpose(1, 0, 2) for w in (w_q, w_k, w_v))
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(hs)  # (H, T, T)
    heads = causal_masked_attention(scores) @ v  # (H, T, hs)
    out: Array = heads.reshape(t_len, n_head * hs) @ w_o  # (H, T, hs) read as (T, H*hs)
    return out


@mistake(
    "mha-keys-from-query-weights",
    replaces="multi_head_attention",
    explanation={
        "zh": "键用 W_Q 投影（复制粘贴时没改成 W_K）",
        "en": "projects the keys with W_Q (copied and pasted, never changed to W_K)",
    },
    where=STAGE4,
)
def mha_keys_from_w_q(
    x: Array, w_q: Array, w_k: Array, w_v: Array, w_o: Array, n_head: int
) -> Array:
    """k = split(w_q): the query projection used twice."""
    x, w_q, w_k, w_v, w_o, n_head, hs = args.mha_weights(x, w_q, w_k, w_v, w_o, n_head)
    t_len = x.shape[0]
    q = (x @ w_q).reshape(t_len, n_head, hs).transpose(1, 0, 2)  # (H, T, hs)
    k = (x @ w_q).reshape(t_len, n_head, hs).transpose(1, 0, 2)  # copied from the line above
    v = (x @ w_v).reshape(t_len, n_head, hs).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(hs)  # (H, T, T)
    heads = causal_masked_attention(scores) @ v  # (H, T, hs)
    out: Array = heads.transpose(1, 0, 2).reshape(t_len, n_head * hs) @ w_o
    return out


@mistake(
    "mha-no-mask",
    replaces="multi_head_attention",
    explanation={
        "zh": "多头注意力里忘了因果掩码：每个位置都看到了未来",
        "en": "multi-head attention without the causal mask: every position sees the future",
    },
    where=STAGE5,
)
def mha_unmasked(x: Array, w_q: Array, w_k: Array, w_v: Array, w_o: Array, n_head: int) -> Array:
    """A plain softmax over every key, the mask forgotten."""
    x, w_q, w_k, w_v, w_o, n_head, hs = args.mha_weights(x, w_q, w_k, w_v, w_o, n_head)
    t_len = x.shape[0]
    q, k, v = ((x @ w).reshape(t_len, n_head, hs).transpose(1, 0, 2) for w in (w_q, w_k, w_v))
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(hs)  # (H, T, T)
    heads = _softmax_last(scores) @ v  # (H, T, hs): a softmax over every key, future included
    out: Array = heads.transpose(1, 0, 2).reshape(t_len, n_head * hs) @ w_o
    return out


@mistake(
    "mha-no-output-projection",
    replaces="multi_head_attention",
    explanation={
        "zh": "拼接各头之后忘了乘 W_O",
        "en": "forgets W_O after concatenating the heads",
    },
    where=STAGE4,
)
def mha_without_w_o(x: Array, w_q: Array, w_k: Array, w_v: Array, w_o: Array, n_head: int) -> Array:
    """Returns the concatenated heads; W_O is never applied."""
    x, w_q, w_k, w_v, w_o, n_head, hs = args.mha_weights(x, w_q, w_k, w_v, w_o, n_head)
    t_len = x.shape[0]
    q, k, v = ((x @ w).reshape(t_len, n_head, hs).transpose(1, 0, 2) for w in (w_q, w_k, w_v))
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(hs)  # (H, T, T)
    heads = causal_masked_attention(scores) @ v  # (H, T, hs)
    out: Array = heads.transpose(1, 0, 2).reshape(t_len, n_head * hs)  # and no @ w_o
    return out


# -- stage 4: counting attention's parameters -------------------------------------------------
@mistake(
    "attention-params-no-output",
    replaces="attention_parameter_count",
    explanation={
        "zh": "只数了 W_Q、W_K、W_V（3d²），漏掉了输出投影 W_O（d²）",
        "en": "counts W_Q, W_K, W_V (3d²) and leaves out the output projection W_O (d²)",
    },
    where=STAGE4,
)
def attention_parameters_without_w_o(d_model: int, n_head: int) -> int:
    """Q, K and V per head, and nothing for W_O."""
    d_model, n_head, head = args.heads(d_model, n_head)
    return n_head * 3 * d_model * head


@mistake(
    "attention-params-one-head",
    replaces="attention_parameter_count",
    explanation={
        "zh": "只数了一个头的 4·d·(d/H)，没有乘以 H：参数量少了 H 倍",
        "en": "counts one head's 4·d·(d/H) and never multiplies by H: H times too few",
    },
    where=STAGE4,
)
def attention_parameters_one_head(d_model: int, n_head: int) -> int:
    """4·d·hs: one head's share, as if it were the whole layer."""
    d_model, _, head = args.heads(d_model, n_head)
    return 4 * d_model * head


# -- stage 3: the parameter table ---------------------------------------------------------------
def _table(
    vocab: int,
    d_model: int,
    n_layer: int,
    d_ff: int,
    context_length: int,
    *,
    n_head: int | None = None,
    positions: Positions = "none",
    biases: bool = False,
    layernorm: bool = False,
    tied: bool = True,
) -> dict[str, int]:
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


def _retotal(table: dict[str, int], n_layer: int) -> dict[str, int]:
    """The per-layer and total rows again, after a mistake changed one term (n_layer as the
    exact int the reference counted with: a NumPy int32 would wrap around)."""
    n_layer = _integer("n_layer", n_layer, 0)
    table["per_layer"] = table["attention_per_layer"] + table["ffn_per_layer"]
    table["per_layer"] += table["norms_per_layer"]
    table["total"] = (
        table["embedding"]
        + table["position_table"]
        + n_layer * table["per_layer"]
        + table["final_norm"]
        + table["head"]
    )
    return table


@mistake(
    "params-ignore-untied",
    replaces="transformer_parameter_count",
    explanation={
        "zh": "忽略了 tied=False：输出头不共享 embedding 时仍记 0，少了 V·d",
        "en": (
            "ignores tied=False: the output head still counts 0 when it does not share the "
            "embedding, V·d too few"
        ),
    },
    where=STAGE3_TABLE,
)
def parameter_count_head_never(
    vocab: int,
    d_model: int,
    n_layer: int,
    d_ff: int,
    context_length: int,
    *,
    n_head: int | None = None,
    positions: Positions = "none",
    biases: bool = False,
    layernorm: bool = False,
    tied: bool = True,
) -> dict[str, int]:
    """The head row is always 0, whatever ``tied`` says."""
    table = _table(
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
    table["head"] = 0  # the tied=False branch was never written
    return _retotal(table, n_layer)


@mistake(
    "params-head-counted-twice",
    replaces="transformer_parameter_count",
    explanation={
        "zh": "embedding 共享（tied=True）时仍把输出头的 V·d 再算一遍：同一块权重被数了两次",
        "en": (
            "counts the output head's V·d even when it is tied to the embedding (tied=True): one "
            "weight counted twice"
        ),
    },
    where=STAGE3_TABLE,
)
def parameter_count_head_always(
    vocab: int,
    d_model: int,
    n_layer: int,
    d_ff: int,
    context_length: int,
    *,
    n_head: int | None = None,
    positions: Positions = "none",
    biases: bool = False,
    layernorm: bool = False,
    tied: bool = True,
) -> dict[str, int]:
    """head = V·d whatever ``tied`` says."""
    table = _table(
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
    # "the output projection is (V, d)": counted as its own weight, tied or not
    table["head"] = table["embedding"]
    return _retotal(table, n_layer)


@mistake(
    "params-ffn-one-matrix",
    replaces="transformer_parameter_count",
    explanation={
        "zh": "FFN 只数了一个矩阵 d·d_ff，漏了第二个 d_ff·d",
        "en": "counts one FFN matrix, d·d_ff, and forgets the second, d_ff·d",
    },
    where=STAGE3,
)
def parameter_count_one_ffn_matrix(
    vocab: int,
    d_model: int,
    n_layer: int,
    d_ff: int,
    context_length: int,
    *,
    n_head: int | None = None,
    positions: Positions = "none",
    biases: bool = False,
    layernorm: bool = False,
    tied: bool = True,
) -> dict[str, int]:
    """ffn = d·d_ff (+ biases): the way back from d_ff to d is left out."""
    table = _table(
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
    table["ffn_per_layer"] -= _integer("d_model", d_model, 1) * _integer("d_ff", d_ff, 1)
    return _retotal(table, n_layer)


@mistake(
    "params-layernorm-gain-only",
    replaces="transformer_parameter_count",
    explanation={
        "zh": "LayerNorm 只数了增益 γ（d 个），漏了偏置 β（又 d 个）",
        "en": "counts LayerNorm's gain γ (d values) and forgets its bias β (d more)",
    },
    where=STAGE3,
)
def parameter_count_norm_gain_only(
    vocab: int,
    d_model: int,
    n_layer: int,
    d_ff: int,
    context_length: int,
    *,
    n_head: int | None = None,
    positions: Positions = "none",
    biases: bool = False,
    layernorm: bool = False,
    tied: bool = True,
) -> dict[str, int]:
    """Each LayerNorm counted as d parameters instead of 2d."""
    table = _table(
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
    table["norms_per_layer"] //= 2
    table["final_norm"] //= 2
    return _retotal(table, n_layer)


@mistake(
    "params-no-final-norm",
    replaces="transformer_parameter_count",
    explanation={
        "zh": "漏掉了最后一层之后的 LayerNorm（ln_f，2d 个参数）",
        "en": "leaves out the LayerNorm after the last block (ln_f, 2d parameters)",
    },
    where=STAGE3,
)
def parameter_count_without_final_norm(
    vocab: int,
    d_model: int,
    n_layer: int,
    d_ff: int,
    context_length: int,
    *,
    n_head: int | None = None,
    positions: Positions = "none",
    biases: bool = False,
    layernorm: bool = False,
    tied: bool = True,
) -> dict[str, int]:
    """Two LayerNorms per block, and none after the last one."""
    table = _table(
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
    table["final_norm"] = 0
    return _retotal(table, n_layer)


@mistake(
    "params-fixed-positions-counted",
    replaces="transformer_parameter_count",
    explanation={
        "zh": "把正弦或旋转位置编码也算成 T·d 个参数：它们是公式，没有权重，总数不该随 T 变",
        "en": (
            "counts sinusoidal or rotary positions as T·d parameters: they are formulas with no "
            "weights, and the total must not change with T"
        ),
    },
    where=ROW_CONTEXT,
)
def parameter_count_any_positions(
    vocab: int,
    d_model: int,
    n_layer: int,
    d_ff: int,
    context_length: int,
    *,
    n_head: int | None = None,
    positions: Positions = "none",
    biases: bool = False,
    layernorm: bool = False,
    tied: bool = True,
) -> dict[str, int]:
    """A position table of T·d for every kind of position encoding, not only a learned one."""
    table = _table(
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
    if positions != "none":
        context = _integer("context_length", context_length, 0)
        table["position_table"] = context * _integer("d_model", d_model, 1)
    return _retotal(table, n_layer)


# -- stage 6: temperature -------------------------------------------------------------------
@mistake(
    "temperature-multiplied",
    replaces="softmax_temperature",
    explanation={
        "zh": "logits 乘以 T 而不是除以 T：低温反而变平，高温反而变尖",
        "en": (
            "multiplies the logits by T instead of dividing: a low T flattens and a high T sharpens"
        ),
    },
    where=STAGE6,
)
def softmax_times_temperature(logits: NDArray[np.floating], temperature: float) -> Array:
    """softmax(logits · T): the reference with its division by T a multiplication."""
    args.temperature_is_real(temperature)
    args.temperature_is_positive(temperature)
    z = args.logits(logits)
    z = z - z.max(axis=-1, keepdims=True)  # (..., V), <= 0
    wide = np.result_type(z.dtype, np.float64)
    with np.errstate(over="ignore"):  # a product below float16's range rounds to -inf
        z = (z.astype(wide) * temperature).astype(z.dtype)
    out: Array = _shares(np.exp(z))
    return out


@mistake(
    "temperature-no-max-subtraction",
    replaces="softmax_temperature",
    explanation={
        "zh": (
            "softmax 前没有减去最大值：低温时 logits/T 超过约 709（float16 约 11），exp 溢出为 ∞，∞"
            "/∞ = NaN"
        ),
        "en": (
            "does not subtract the max before exp: at low T, logits/T above about 709 (about 11 in "
            "float16) overflow to ∞, and ∞/∞ = NaN"
        ),
    },
    where=STAGE6,
)
def softmax_temperature_unshifted(logits: NDArray[np.floating], temperature: float) -> Array:
    """exp(logits / T) / sum, without the max subtracted."""
    args.temperature_is_real(temperature)
    args.temperature_is_positive(temperature)
    z = args.over_temperature(args.logits(logits), temperature)  # (..., V), never shifted
    e = np.exp(z)  # overflows to inf past about 709 (about 11 in float16)
    out: Array = _shares(e)
    return out


@mistake(
    "temperature-softmax-axis0",
    replaces="softmax_temperature",
    explanation={
        "zh": "softmax 沿 axis=0 归一化：一维时看不出来，一批 logits（每行一个分布）就错了",
        "en": (
            "normalizes along axis=0: invisible for one vector, wrong for a batch of logits (one "
            "distribution per row)"
        ),
    },
    where=STAGE6,
)
def softmax_temperature_axis0(logits: NDArray[np.floating], temperature: float) -> Array:
    """The max and the sum taken over axis 0 instead of the last axis."""
    args.temperature_is_real(temperature)
    args.temperature_is_positive(temperature)
    z = args.logits(logits)
    z = z - z.max(axis=0, keepdims=True)  # over axis 0: the first axis of a batch
    z = args.over_temperature(z, temperature)
    e = np.exp(z)
    total = e.sum(axis=0, keepdims=True, dtype=np.result_type(e.dtype, np.float32))
    out: Array = (e / total).astype(e.dtype)
    return out


@mistake(
    "temperature-always-float64",
    replaces="softmax_temperature",
    explanation={
        "zh": (
            "总是转成 float64 计算：float16/float32 的 logits 不在自己的精度里算，下溢点也就不再随 "
            "dtype 变化"
        ),
        "en": (
            "always converts to float64: float16/float32 logits are not computed in their own "
            "precision, so where the tail underflows no longer depends on the dtype"
        ),
    },
    where=STAGE6,
)
def softmax_temperature_float64(logits: NDArray[np.floating], temperature: float) -> Array:
    """The logits made float64 first, whatever floating dtype they came in."""
    args.temperature_is_real(temperature)
    args.temperature_is_positive(temperature)
    z = args.logits(logits).astype(np.float64)  # float16 and float32 widened
    e = np.exp(args.over_temperature(z - z.max(axis=-1, keepdims=True), temperature))
    out: Array = _shares(e)
    return out


# -- stage 6: top-k ---------------------------------------------------------------------------
@mistake(
    "topk-keeps-ties",
    replaces="top_k_renormalize",
    explanation={
        "zh": (
            "保留所有 ≥ 第 k 大值的项：边界上有并列时留下的多于 k 个（约定是只留 k 个，并列取下标小"
            "的）"
        ),
        "en": (
            "keeps every entry ≥ the k-th largest value: with a tie at the boundary more than k "
            "survive (the rule keeps exactly k, the lower index on ties)"
        ),
    },
    where=STAGE6,
)
def top_k_threshold(probs: Array, k: int) -> Array:
    """Keeps p >= the k-th largest value, so ties at the boundary all stay."""
    p, k = args.probs_and_k(probs, k)  # (V,)
    threshold = np.sort(p)[-k]
    return args.renormalized(np.where(p >= threshold, p, 0.0))


@mistake(
    "topk-tie-keeps-higher-index",
    replaces="top_k_renormalize",
    explanation={
        "zh": "边界上并列时留下了下标大的那个（argsort 升序取最后 k 个），约定是留下标小的",
        "en": (
            "on a tie at the boundary keeps the higher index (the last k of an ascending argsort); "
            "the rule keeps the lower one"
        ),
    },
    where=STAGE6,
)
def top_k_last_of_ascending(probs: Array, k: int) -> Array:
    """np.argsort(p)[-k:]: among equal values the later index sorts last, so it is kept."""
    p, k = args.probs_and_k(probs, k)  # (V,)
    keep = np.argsort(p, kind="stable")[-k:]  # (k,)
    out = np.zeros_like(p)
    out[keep] = p[keep]
    return args.renormalized(out)


@mistake(
    "topk-strict-threshold",
    replaces="top_k_renormalize",
    explanation={
        "zh": (
            "用严格大于第 k 大值（p > 阈值）筛选：第 k 个自己被丢掉，只剩 k−1 个"
            "（并列时更少；一个不剩时和为 0，抛出 ValueError）"
        ),
        "en": (
            "keeps p strictly above the k-th largest value: the k-th itself is dropped, leaving "
            "k−1 (fewer on ties; when nothing is left the sum is 0, a ValueError)"
        ),
    },
    where=STAGE6,
)
def top_k_strict_threshold(probs: Array, k: int) -> Array:
    """p > the k-th largest value: an off-by-one that loses the k-th entry."""
    p, k = args.probs_and_k(probs, k)  # (V,)
    threshold = np.sort(p)[-k]
    # on a tie at the top nothing is left: the renormalization refuses a sum of 0
    return args.renormalized(np.where(p > threshold, p, 0.0))


@mistake(
    "topk-keeps-smallest",
    replaces="top_k_renormalize",
    explanation={
        "zh": "argsort 是升序的：取前 k 个留下的是最小的 k 个",
        "en": "argsort sorts ascending: its first k are the k smallest",
    },
    where=STAGE6,
)
def top_k_smallest(probs: Array, k: int) -> Array:
    """np.argsort(p)[:k], the k smallest."""
    p, k = args.probs_and_k(probs, k)  # (V,)
    keep = np.argsort(p, kind="stable")[:k]  # (k,) ascending: the smallest
    out = np.zeros_like(p)
    out[keep] = p[keep]
    return args.renormalized(out)


@mistake(
    "topk-softmax-of-probs",
    replaces="top_k_renormalize",
    explanation={
        "zh": "把保留下来的概率再做一次 softmax 当作归一化：概率不是 logits，比例被压平",
        "en": (
            "renormalizes by taking a softmax of the kept probabilities: probabilities are not "
            "logits, and the ratios flatten"
        ),
    },
    where=STAGE6,
)
def top_k_softmax_again(probs: Array, k: int) -> Array:
    """exp(p) / sum exp(p) over the survivors instead of p / sum p."""
    p, k = args.probs_and_k(probs, k)  # (V,)
    keep = np.argsort(-p, kind="stable")[:k]  # (k,)
    out = np.zeros_like(p)
    out[keep] = p[keep]
    args.renormalized(out)  # as the reference, a kept sum of 0 is refused
    # then the survivors are "renormalized" by a softmax (max subtracted: finite probs as large
    # as 1e308 are valid, and the mistake is the softmax, not an overflow)
    e = np.exp(p[keep] - p[keep].max())
    out[keep] = e / e.sum()
    return out


# -- stage 7: the logits bill ---------------------------------------------------------------
@mistake(
    "logits-bits-not-bytes",
    replaces="logits_memory_bytes",
    explanation={
        "zh": "按比特算（FP32 = 32）而不是字节（FP32 = 4）：大了 8 倍",
        "en": "counts bits (FP32 = 32) instead of bytes (FP32 = 4): 8 times too large",
    },
    where=STAGE7,
)
def logits_memory_bits(batch: int, length: int, vocab: int, bytes_per_value: int = 4) -> int:
    """B·T·V·bytes·8: the width of a value in bits."""
    batch, length, vocab, bytes_per_value = args.logits_sizes(batch, length, vocab, bytes_per_value)
    return batch * length * vocab * bytes_per_value * 8


@mistake(
    "logits-ignores-batch",
    replaces="logits_memory_bytes",
    explanation={
        "zh": "漏乘 batch：只算了一条序列的 logits",
        "en": "leaves out the batch: the logits of one sequence only",
    },
    where=STAGE7,
)
def logits_memory_one_sequence(
    batch: int, length: int, vocab: int, bytes_per_value: int = 4
) -> int:
    """T·V·bytes, as if B were always 1."""
    batch, length, vocab, bytes_per_value = args.logits_sizes(batch, length, vocab, bytes_per_value)
    return length * vocab * bytes_per_value


@mistake(
    "logits-fixed-fp32",
    replaces="logits_memory_bytes",
    explanation={
        "zh": "忽略 bytes_per_value，总按 FP32 的 4 字节算",
        "en": "ignores bytes_per_value and always counts FP32's 4 bytes",
    },
    where=STAGE7,
)
def logits_memory_fp32(batch: int, length: int, vocab: int, bytes_per_value: int = 4) -> int:
    """B·T·V·4, whatever bytes_per_value is."""
    batch, length, vocab, bytes_per_value = args.logits_sizes(batch, length, vocab, bytes_per_value)
    return batch * length * vocab * 4


@mistake(
    "logits-returns-mib",
    replaces="logits_memory_bytes",
    explanation={
        "zh": "返回的是 MiB（除以了 2^20），而函数约定返回字节数",
        "en": "returns MiB (divided by 2^20) where the function promises bytes",
    },
    where=STAGE7,
)
def logits_memory_mib(batch: int, length: int, vocab: int, bytes_per_value: int = 4) -> float:
    """The table's MiB figure instead of the byte count."""
    batch, length, vocab, bytes_per_value = args.logits_sizes(batch, length, vocab, bytes_per_value)
    return batch * length * vocab * bytes_per_value / 2**20


# -- stage 2 beyond: FlashAttention ---------------------------------------------------------
def _flash(
    q: Array,
    k: Array,
    v: Array,
    block: int,
    *,
    scale: bool = True,
    mask: str = "causal",
    start: float = -np.inf,
    fill: float = -np.inf,
    empty_v: bool = False,
) -> Array:
    """The reference's tiled attention with one step done another way (see each mistake).

    ``mask``: "causal" (the reference), "none" (every key tile, nothing hidden) or
    "tiles" (future tiles skipped, but the tile on the diagonal not masked inside); the
    running max starts at ``start``, the future inside a tile is ``fill``, and with
    ``empty_v`` a v of width 0 is let through (the reference: −∞, −∞, refused).
    """
    if empty_v:  # the reference's shape checks, v's width aside
        q, k = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64)
        v = np.asarray(v, dtype=np.float64)
        if q.ndim != 2 or k.shape != q.shape or v.ndim != 2 or v.shape[0] != q.shape[0]:
            raise ValueError(
                f"need q, k (T, d) and v (T, d_v); got {q.shape}, {k.shape}, {v.shape}"
            )
        if 0 in q.shape:
            raise ValueError(f"need T, d >= 1, got q {q.shape}")
    else:  # (T, d), (T, d), (T, d_v), checked as the reference checks them
        q, k, v = _qkv(q, k, v)
    block = _integer("block", block, 1)
    t_len, d = q.shape
    factor = 1.0 / math.sqrt(d) if scale else 1.0
    out = np.empty((t_len, v.shape[1]))
    for i0 in range(0, t_len, block):
        i1 = min(i0 + block, t_len)
        q_tile = q[i0:i1]  # (Bq, d)
        m = np.full(i1 - i0, start)
        l_sum = np.zeros(i1 - i0)
        acc = np.zeros((i1 - i0, v.shape[1]))
        last = t_len if mask == "none" else i1
        for j0 in range(0, last, block):
            j1 = min(j0 + block, t_len)
            k_tile, v_tile = k[j0:j1], v[j0:j1]
            s = (q_tile @ k_tile.T) * factor  # (Bq, Bk)
            if mask == "causal" and j1 - 1 > i0:
                future = np.arange(j0, j1)[None, :] > np.arange(i0, i1)[:, None]
                s = np.where(future, fill, s)
            with np.errstate(over="ignore", invalid="ignore"):  # a max from 0: 0/0 below
                m_new = np.maximum(m, s.max(axis=1))
                p = np.exp(s - m_new[:, None])
                rescale = np.exp(m - m_new)
                l_sum = l_sum * rescale + p.sum(axis=1)
                acc = acc * rescale[:, None] + p @ v_tile
            m = m_new
        with np.errstate(invalid="ignore", divide="ignore"):
            out[i0:i1] = acc / l_sum[:, None]
    return out


@mistake(
    "flash-no-scale",
    replaces="flash_attention",
    explanation={
        "zh": "分块计算的分数没有除以 √d：和朴素 attention 不是同一个函数",
        "en": "the tiled scores are not divided by √d: not the same function as naive attention",
    },
    where=STAGE2_BEYOND,
)
def flash_attention_unscaled(q: Array, k: Array, v: Array, block: int) -> Array:
    """The online softmax over q·kᵀ without the 1/√d."""
    return _flash(q, k, v, block, scale=False)


@mistake(
    "flash-no-mask",
    replaces="flash_attention",
    explanation={
        "zh": "分块时遍历了全部键块且不加掩码：算的是非因果的 attention",
        "en": "runs over every key tile with no mask: non-causal attention",
    },
    where=STAGE2_BEYOND,
)
def flash_attention_unmasked(q: Array, k: Array, v: Array, block: int) -> Array:
    """Every key tile, nothing hidden."""
    return _flash(q, k, v, block, mask="none")


@mistake(
    "flash-diagonal-tile-unmasked",
    replaces="flash_attention",
    explanation={
        "zh": "跳过了整块在未来的键块，却没有在跨对角线的那一块里再遮住未来：块内仍泄漏未来",
        "en": (
            "skips the key tiles entirely in the future but does not mask inside the tile that "
            "crosses the diagonal: the future leaks there"
        ),
    },
    where=STAGE2_BEYOND,
)
def flash_attention_tiles_only(q: Array, k: Array, v: Array, block: int) -> Array:
    """Future tiles skipped, the diagonal tile taken whole."""
    return _flash(q, k, v, block, mask="tiles")


# -- stage 2 beyond: linear attention -------------------------------------------------------
def _linear(
    q: Array, k: Array, v: Array, *, phi: str = "elu+1", normalize: bool = True, lag: int = 0
) -> Array:
    """The reference's running-sum linear attention with one step done another way.

    ``lag`` = 1 reads the state before position t is added to it (the prefix 0..t−1).
    """
    q, k, v = _qkv(q, k, v)  # (T, d), (T, d), (T, d_v), checked as the reference checks them
    t_len, d = q.shape
    d_v = v.shape[1]

    def feature(x: Array) -> Array:
        if phi == "elu":  # elu(x) without the + 1: negative for x < 0
            return np.where(x > 0, x, np.exp(np.minimum(x, 0.0)) - 1.0)
        if phi == "relu":
            return np.maximum(x, 0.0)
        if phi == "exp":
            with np.errstate(over="ignore"):
                return np.exp(x)
        return _elu_plus_one(x)

    # "scaled-q": q divided by √d before φ, as softmax attention scales its scores
    phi_q = _elu_plus_one(q / math.sqrt(d)) if phi == "scaled-q" else feature(q)  # (T, d)
    phi_k = feature(k)  # (T, d)
    state = np.zeros((d, d_v))
    norm = np.zeros(d)
    out = np.empty((t_len, d_v))
    for t in range(t_len):
        if lag:
            out[t] = (phi_q[t] @ state) / (phi_q[t] @ norm) if normalize else phi_q[t] @ state
        state += phi_k[t, :, None] * v[t]
        norm += phi_k[t]
        if not lag:
            out[t] = (phi_q[t] @ state) / (phi_q[t] @ norm) if normalize else phi_q[t] @ state
    return out


@mistake(
    "linear-phi-elu",
    replaces="linear_attention",
    explanation={
        "zh": "特征映射用 elu(x) 而不是 elu(x)+1：φ 可以为负，分母可能接近 0 或变号",
        "en": (
            "uses φ = elu(x) instead of elu(x) + 1: φ can be negative, so the denominator can "
            "approach 0 or change sign"
        ),
    },
    where=STAGE2_BEYOND,
)
def linear_attention_elu(q: Array, k: Array, v: Array) -> Array:
    """φ(x) = elu(x), the + 1 forgotten."""
    return _linear(q, k, v, phi="elu")


@mistake(
    "linear-phi-relu",
    replaces="linear_attention",
    explanation={
        "zh": "特征映射用 ReLU 而不是 elu+1：φ 可以为 0，分母可能为 0，得到 NaN 或 ∞",
        "en": (
            "uses φ = ReLU instead of elu + 1: φ can be 0, so a denominator can be 0, giving NaN "
            "or ∞"
        ),
    },
    where=STAGE2_BEYOND,
)
def linear_attention_relu(q: Array, k: Array, v: Array) -> Array:
    """φ(x) = max(x, 0)."""
    return _linear(q, k, v, phi="relu")


@mistake(
    "linear-no-normalizer",
    replaces="linear_attention",
    explanation={
        "zh": "只算了分子 φ(q)ᵀS，没有除以 φ(q)ᵀz：权重不再和为 1",
        "en": (
            "computes only the numerator φ(q)ᵀS and never divides by φ(q)ᵀz: the weights no longer "
            "sum to 1"
        ),
    },
    where=STAGE2_BEYOND,
)
def linear_attention_unnormalized(q: Array, k: Array, v: Array) -> Array:
    """φ(q_t)ᵀ S_t without the denominator."""
    return _linear(q, k, v, normalize=False)


@mistake(
    "linear-prefix-excludes-self",
    replaces="linear_attention",
    explanation={
        "zh": "在把位置 t 加进累加和之前就读出输出：位置 t 只看到 0..t−1，第 0 行是 0/0 = NaN",
        "en": (
            "reads the output before adding position t to the running sums: position t sees only "
            "0..t−1, and row 0 is 0/0 = NaN"
        ),
    },
    where=STAGE2_BEYOND,
)
def linear_attention_lagged(q: Array, k: Array, v: Array) -> Array:
    """out[t] from S_{t−1}, z_{t−1}: an off-by-one in the order of two lines."""
    return _linear(q, k, v, lag=1)


# -- stage 2 beyond: MoE ------------------------------------------------------------------------
def _moe(
    x: Array,
    w_router: Array,
    experts_w_in: Array,
    experts_w_out: Array,
    top_k: int,
    *,
    gates: str = "kept",
    ties: str = "lower",
    bound: bool = True,
) -> Array:
    """The reference's routed MoE layer with the gates computed another way.

    ``gates``: "kept" (the reference: a softmax over the kept scores), "all" (a softmax
    over every expert, then the kept ones taken without renormalizing), "ones" (no gate),
    "reversed" (experts taken from an ascending argsort, gates from a descending sort) or
    "unshifted" (a softmax over the kept scores without their max); ``ties`` "higher"
    keeps the higher expert index at a tie (a reversed ascending argsort); without
    ``bound``, top_k is not checked against E (the slice then keeps every expert).
    """
    # (T, d), (d, E), (E, d, d_ff), (E, d_ff, d), checked as the reference checks them
    x, w_router, experts_w_in, experts_w_out, checked = args.moe_inputs(
        x, w_router, experts_w_in, experts_w_out, top_k if bound else 1
    )
    top_k = checked if bound else _integer("top_k", top_k, 1)
    t_len, d = x.shape
    n_experts = w_router.shape[1]
    logits = x @ w_router  # (T, E)
    if gates == "reversed":
        chosen = np.argsort(logits, axis=1, kind="stable")[:, -top_k:]  # ascending: lowest first
        kept = -np.sort(-logits, axis=1)[:, :top_k]  # descending: highest first
    elif ties == "higher":
        chosen = np.argsort(logits, axis=1, kind="stable")[:, ::-1][:, :top_k]  # (T, k)
        kept = np.take_along_axis(logits, chosen, axis=1)  # (T, k)
    else:
        chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]  # (T, k)
        kept = np.take_along_axis(logits, chosen, axis=1)  # (T, k)
    if gates == "all":
        every = np.exp(logits - logits.max(axis=1, keepdims=True))
        every /= every.sum(axis=1, keepdims=True)  # (T, E), a softmax over all experts
        weight = np.take_along_axis(every, chosen, axis=1)  # (T, k), not renormalized
    elif gates == "ones":
        weight = np.ones_like(kept)
    elif gates == "unshifted":
        with np.errstate(over="ignore", invalid="ignore"):  # exp(±1e3): ∞/∞ = NaN
            weight = np.exp(kept)
            weight = weight / weight.sum(axis=1, keepdims=True)
    else:
        weight = np.exp(kept - kept.max(axis=1, keepdims=True))
        weight /= weight.sum(axis=1, keepdims=True)
    y = np.zeros((t_len, d))
    for e in range(n_experts):
        rows, slot = np.nonzero(chosen == e)
        if rows.size == 0:
            continue
        h = np.asarray(position_wise_mlp(x[rows], experts_w_in[e], experts_w_out[e]))
        y[rows] += weight[rows, slot][:, None] * h
    return y


@mistake(
    "moe-gates-not-renormalized",
    replaces="moe_layer",
    explanation={
        "zh": (
            "门控是对全部 E 个专家做 softmax 后直接取被选中的 k 个，没有在这 k 个上重新归一化：门控"
            "和小于 1"
        ),
        "en": (
            "takes the gates from a softmax over all E experts and keeps the chosen k without "
            "renormalizing over them: the gates sum to less than 1"
        ),
    },
    where=STAGE2_BEYOND,
)
def moe_layer_softmax_over_all(
    x: Array, w_router: Array, experts_w_in: Array, experts_w_out: Array, top_k: int
) -> Array:
    """softmax over every expert, then the top-k probabilities as gates."""
    return _moe(x, w_router, experts_w_in, experts_w_out, top_k, gates="all")


@mistake(
    "moe-no-gates",
    replaces="moe_layer",
    explanation={
        "zh": "把被选中专家的输出直接相加，没有乘门控权重（top_k = 1 时看不出来）",
        "en": (
            "adds the chosen experts' outputs without weighting them by their gates (invisible "
            "when top_k = 1)"
        ),
    },
    where=STAGE2_BEYOND,
)
def moe_layer_ungated(
    x: Array, w_router: Array, experts_w_in: Array, experts_w_out: Array, top_k: int
) -> Array:
    """Every chosen expert with a weight of 1."""
    return _moe(x, w_router, experts_w_in, experts_w_out, top_k, gates="ones")


@mistake(
    "moe-gates-misaligned",
    replaces="moe_layer",
    explanation={
        "zh": (
            "门控与专家错位：专家按升序 argsort 取最后 k 个，门控却按降序排：最高的门控给了分数最低"
            "的被选专家"
        ),
        "en": (
            "gates and experts misaligned: the experts come from the last k of an ascending "
            "argsort, the gates from a descending sort, so the highest gate goes to the "
            "lowest-scoring chosen expert"
        ),
    },
    where=STAGE2_BEYOND,
)
def moe_layer_misaligned(
    x: Array, w_router: Array, experts_w_in: Array, experts_w_out: Array, top_k: int
) -> Array:
    """argsort(logits)[:, -k:] for the experts, sort descending for the gates."""
    return _moe(x, w_router, experts_w_in, experts_w_out, top_k, gates="reversed")


@mistake(
    "moe-params-no-router",
    replaces="moe_parameter_count",
    explanation={
        "zh": "漏掉了路由器的 d·E 个参数",
        "en": "leaves out the router's d·E parameters",
    },
    where=STAGE2_BEYOND,
)
def moe_parameters_without_router(d_model: int, d_ff: int, n_experts: int) -> int:
    """E experts of two matrices each, and no router."""
    d_model, d_ff, n_experts = args.moe_sizes(d_model, d_ff, n_experts)
    return n_experts * 2 * d_model * d_ff


@mistake(
    "moe-params-one-expert",
    replaces="moe_parameter_count",
    explanation={
        "zh": "只数了一个专家的 2·d·d_ff，没有乘以 E：把每个 token 的计算量当成了参数量",
        "en": (
            "counts one expert's 2·d·d_ff and never multiplies by E: the per-token compute taken "
            "for the parameter count"
        ),
    },
    where=STAGE2_BEYOND,
)
def moe_parameters_one_expert(d_model: int, d_ff: int, n_experts: int) -> int:
    """The router plus a single expert."""
    d_model, d_ff, n_experts = args.moe_sizes(d_model, d_ff, n_experts)
    return d_model * n_experts + 2 * d_model * d_ff
