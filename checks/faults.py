"""The chapter's fault table as code: each mistake is a broken twin of one subject.

Every twin is written the way a person really makes the mistake, then registered under the
fault's id in the same registry as the reference. Each is the reference with that one thing
wrong: it checks its arguments as the reference does (:mod:`checks.twin_args`) and differs
from it only where its explanation says, so that the diagnosis can name a learner who made
the mistake alone. Injecting a fault builds an implementation
where the twin stands in for the subject (and for every reference function that calls it);
the reference code is never edited or branched on a flag.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from checks import twin_args as args
from checks.pack import twin
from checks.reference._args import _integer, _shares
from checks.reference.attention import _softmax_last
from checks.reference.beyond import _elu_plus_one, _qkv
from checks.reference.params import Positions

Array = NDArray[np.float64]


@twin(
    "vt-as-v-times-t",
    replaces="sequence_support_log10",
    explanation={
        "zh": "把序列数 V^T 当成了 V·T：词表大小乘长度不是序列个数",
        "en": (
            "reads the number of sequences V^T as V·T: vocabulary size times length is not a count "
            "of sequences"
        ),
    },
    where={
        "zh": "故障表：用同一个 V 同时算序列数和上下文长度",
        "en": ("fault table: one V used for both the number of sequences and the context length"),
    },
)
def support_as_product(vocab: int, length: int) -> float:
    """Reads 'V tokens, T positions' as V·T sequences instead of V^T."""
    vocab, length = args.sizes(vocab, length)
    if length == 0:  # log10(V·0): the mistake has no value here (see MistakeUndefined)
        raise args.MistakeUndefined("log10(V·T) at T = 0 is log10 0")
    return math.log10(vocab * length)


@twin(
    "giant-mlp-missing-input-width",
    replaces="giant_mlp_parameter_log10",
    explanation={
        "zh": ("巨型 MLP 的输入宽度按一个 token 的 one-hot（V）算，漏掉了它要看全部 V^T 个序列"),
        "en": (
            "sizes the giant MLP's input as one token's one-hot (V) and forgets it must see all V^T "
            "sequences"
        ),
    },
    where={
        "zh": "故障表：估计巨型 MLP 参数量时漏掉输入层宽度 V^T",
        "en": "fault table: the giant-MLP estimate without the V^T input width",
    },
)
def giant_mlp_one_token_input(vocab: int, length: int, hidden: int) -> float:
    """Sizes the MLP's input as one token's one-hot (V) and forgets it must see V^T sequences."""
    hidden = _integer("hidden", hidden, 1)
    vocab, _ = args.sizes(vocab, length)
    return math.log10(vocab * hidden)


@twin(
    "params-include-context",
    replaces="transformer_parameter_count",
    explanation={
        "zh": "把每层 T×T 的注意力矩阵算成了参数：那是计算代价，不是权重",
        "en": (
            "counts each layer's T×T attention matrix as parameters: that is a cost of computing, not "
            "a weight"
        ),
    },
    where={
        "zh": "故障表：参数记账里把上下文长度算进去",
        "en": ("fault table: the context length counted into the parameter total"),
    },
)
def parameter_count_with_attention_matrix(
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
    """Counts each layer's T x T attention matrix as if it were weights (cost is not size)."""
    from checks.reference.params import transformer_parameter_count

    table = transformer_parameter_count(
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
    context = _integer("context_length", context_length, 0)  # exact, as the reference counts
    attention_matrix = context * context
    table["attention_per_layer"] += attention_matrix
    table["per_layer"] += attention_matrix
    table["total"] += _integer("n_layer", n_layer, 0) * attention_matrix
    return table


@twin(
    "heads-as-copies",
    replaces="attention_parameter_count",
    explanation={
        "zh": "把 H 个头当成 H 份完整的 d 宽 attention，参数按 H 倍算",
        "en": ("counts H heads as H full copies of a d-wide attention, H times the parameters"),
    },
    where={
        "zh": "故障表：把多头当成多份完整拷贝，参数按 H 倍算",
        "en": ("fault table: heads counted as full copies, H times the parameters"),
    },
)
def attention_parameters_per_copy(d_model: int, n_head: int) -> int:
    """Counts H heads as H full copies of a d-wide attention, 4d² each."""
    d_model, n_head, _ = args.heads(d_model, n_head)
    return n_head * 4 * d_model * d_model


@twin(
    "mask-multiply-zero",
    replaces="causal_masked_attention",
    explanation={
        "zh": "把未来位置的分数乘 0 而不是置 −∞：exp(0)=1，未来位置仍分到权重",
        "en": (
            "multiplies the future scores by 0 instead of setting them to −∞: exp(0) = 1, so the future "
            "still gets weight"
        ),
    },
    where={
        "zh": "故障表：因果掩码用乘 0 而不是置 −∞",
        "en": "fault table: the causal mask by multiplying by 0 instead of −∞",
    },
)
def causal_mask_by_multiplying(scores: Array) -> Array:
    """Multiplies the future scores by 0 instead of setting them to -inf, then softmaxes."""
    scores = args.scores(scores)  # (..., T, T)
    t_len = scores.shape[-1]
    visible = np.tri(t_len)  # (T, T): 1 where s <= t
    # the future is now a score of 0, not -inf: exp(0) is not 0
    return _softmax_last(scores * visible)


@twin(
    "mask-no-renormalize",
    replaces="causal_masked_attention",
    explanation={
        "zh": ("先在全部 T 个位置上做 softmax，再把未来清零，没有对可见前缀重新归一化"),
        "en": (
            "softmaxes over all T positions, then zeroes the future without renormalizing the visible "
            "prefix"
        ),
    },
    where={
        "zh": "故障表：因果掩码后不重新归一化",
        "en": "fault table: the causal mask without renormalizing",
    },
)
def causal_mask_after_softmax(scores: Array) -> Array:
    """Softmaxes over all T keys, then zeroes the future and stops there."""
    scores = args.scores(scores)  # (..., T, T)
    t_len = scores.shape[-1]
    weights = _softmax_last(scores)  # (..., T, T) over every key, future included
    weights *= np.tri(t_len)  # the future zeroed, the rest left as it is
    return weights


@twin(
    "temperature-zero",
    replaces="softmax_temperature",
    explanation={
        "zh": (
            "没有拒绝 T ≤ 0（也没有拒绝 NaN 或 ∞ 的 T）：T=0 时最大值处是 0/0 = NaN，整个输出都是"
            " NaN；负的 T 把排序反过来"
        ),
        "en": (
            "does not refuse T ≤ 0 (nor a NaN or infinite T): at T = 0 the max gives 0/0 = NaN "
            "and the whole output is NaN; a negative T reverses the order"
        ),
    },
    where={
        "zh": "故障表：温度取 0 传给 softmax",
        "en": "fault table: temperature 0 passed to softmax",
    },
)
def softmax_temperature_unguarded(logits: NDArray[np.floating], temperature: float) -> Array:
    """The reference without its guard on T: divides by whatever T it is given."""
    args.temperature_is_real(temperature)  # the guard `T finite and > 0` is what is missing
    z = args.logits(logits)
    z = z - z.max(axis=-1, keepdims=True)  # (..., V), <= 0, exactly 0 at the max
    z = args.over_temperature(z, temperature)  # at T = 0: 0/0 = NaN at the max, -inf elsewhere
    out: Array = _shares(np.exp(z))
    return out


@twin(
    "low-temperature-underflow",
    replaces="softmax_temperature",
    explanation={
        "zh": "在 float16 里算 softmax：尾部比 float64 早得多地下溢成精确 0",
        "en": (
            "computes the softmax in float16: the tail underflows to an exact 0 long before float64's "
            "would"
        ),
    },
    where={
        "zh": "故障表：低温下期待长尾仍是“很小但非零”",
        "en": ("fault table: expecting the low-temperature tail to stay small but non-zero"),
    },
)
def softmax_temperature_half(logits: NDArray[np.floating], temperature: float) -> Array:
    """Runs the softmax in float16 'to save memory' and hands the result back in the logits'
    dtype: the tail underflows long before float64's."""
    args.temperature_is_real(temperature)
    args.temperature_is_positive(temperature)
    z = args.logits(logits)
    dtype = z.dtype
    z = z.astype(np.float16)  # the one change: every step below runs in float16
    z = z - z.max(axis=-1, keepdims=True)
    z = args.over_temperature(z, temperature)  # rounded to float16: exp(-3/T) is 0 below T≈0.173
    out: Array = _shares(np.exp(z)).astype(dtype)
    return out


@twin(
    "topk-no-renormalize",
    replaces="top_k_renormalize",
    explanation={
        "zh": "保留最大的 k 个后没有重新缩放，概率和小于 1",
        "en": (
            "keeps the k largest but does not rescale them, so the probabilities sum to less than 1"
        ),
    },
    where={
        "zh": "故障表：top-k 归零后忘记归一化",
        "en": "fault table: top-k without renormalizing",
    },
)
def top_k_zero_only(probs: Array, k: int) -> Array:
    """Zeroes everything but the k largest and forgets to rescale the survivors."""
    p, k = args.probs_and_k(probs, k)  # (V,)
    keep = np.argsort(-p, kind="stable")[:k]  # (k,)
    out = np.zeros_like(p)
    out[keep] = p[keep]
    return out


@twin(
    "flash-no-rescale",
    replaces="flash_attention",
    explanation={
        "zh": ("分块时最大值变了却没有重新缩放已累加的和：exp(s−m_old) 与 exp(s−m_new) 被加在一起"),
        "en": (
            "when a new tile raises the running max, the sums taken so far are not rescaled: exp(s "
            "− m_old) and exp(s − m_new) terms are added together"
        ),
    },
    where={
        "zh": "阶段二：FlashAttention 只改访存顺序（在线 softmax）",
        "en": ("stage 2: FlashAttention changes only the order of memory access (online softmax)"),
    },
)
def flash_attention_without_rescale(q: Array, k: Array, v: Array, block: int) -> Array:
    """Tiled attention that tracks the running max but never rescales the sums already taken
    under the old max: exp(s − m_old) and exp(s − m_new) terms end up added together."""
    q, k, v = _qkv(q, k, v)  # (T, d), (T, d), (T, d_v)
    block = _integer("block", block, 1)
    t_len, d = q.shape
    scale = 1.0 / math.sqrt(d)
    out = np.empty((t_len, v.shape[1]))  # (T, d_v)
    for i0 in range(0, t_len, block):
        i1 = min(i0 + block, t_len)
        q_tile = q[i0:i1]  # (Bq, d)
        m = np.full(i1 - i0, -np.inf)  # (Bq,) running max
        l_sum = np.zeros(i1 - i0)  # (Bq,)
        acc = np.zeros((i1 - i0, v.shape[1]))  # (Bq, d_v)
        for j0 in range(0, i1, block):  # in place, as the reference's tiles
            j1 = min(j0 + block, t_len)
            s = q_tile @ k[j0:j1].T  # (Bq, Bk)
            s *= scale
            if j1 - 1 > i0:  # the tile crosses the diagonal: hide each query's future keys
                future = np.arange(j0, j1)[None, :] > np.arange(i0, i1)[:, None]
                s[future] = -np.inf
            m = np.maximum(m, s.max(axis=1))
            s -= m[:, None]
            p = np.exp(s, out=s)  # (Bq, Bk)
            l_sum += p.sum(axis=1)  # the old sum was taken under the old max
            acc += p @ v[j0:j1]
        out[i0:i1] = acc / l_sum[:, None]
    return out


@twin(
    "linear-attention-global-sums",
    replaces="linear_attention",
    explanation={
        "zh": "用全序列的 φ(K)ᵀV 而不是前缀累加：每个位置都看到了未来",
        "en": (
            "uses the whole sequence's φ(K)ᵀV instead of prefix sums: every position sees the future"
        ),
    },
    where={
        "zh": "阶段二：线性注意力（与阶段五的因果性）",
        "en": "stage 2: linear attention (and stage 5's causality)",
    },
)
def linear_attention_noncausal(q: Array, k: Array, v: Array) -> Array:
    """The linear-attention formula as usually printed, φ(Q)(φ(K)ᵀV) / φ(Q)(φ(K)ᵀ1): the
    sums run over all T keys at once instead of the prefix, so every position sees the future.
    """
    q, k, v = _qkv(q, k, v)  # (T, d), (T, d), (T, d_v)
    phi_q, phi_k = _elu_plus_one(q), _elu_plus_one(k)  # (T, d) each
    state = phi_k.T @ v  # (d, d_v), over every position
    norm = phi_k.sum(axis=0)  # (d,)
    out: Array = (phi_q @ state) / (phi_q @ norm)[:, None]
    return out


@twin(
    "moe-dense-experts",
    replaces="moe_layer",
    explanation={
        "zh": ("每个专家都算每个 token，再把未选中专家的门控置 0：输出相同，省下的计算全没了"),
        "en": (
            "runs every expert on every token and zeroes the unchosen gates: the same output, and none "
            "of the saving"
        ),
    },
    where={
        "zh": "阶段二：MoE 每个 token 的计算量不涨",
        "en": "stage 2: MoE keeps the per-token compute",
    },
)
def moe_layer_all_experts(
    x: Array, w_router: Array, experts_w_in: Array, experts_w_out: Array, top_k: int
) -> Array:
    """Runs every expert on every token and zeroes the gates of the unchosen ones: the same
    output as routing while every weight is finite, and none of the saving (an unchosen
    expert's weights are read and multiplied by a gate of 0, so NaN weights give 0·NaN =
    NaN). It checks its arguments as the reference does (top_k ≤ E included): the
    whole-function claim's cases hold an expert no token chooses, with NaN weights, which is
    where it differs.
    """
    from checks.reference.attention import position_wise_mlp

    # (T, d), (d, E), (E, d, d_ff), (E, d_ff, d), top_k in 1..E, as the reference checks them
    x, w_router, experts_w_in, experts_w_out, top_k = args.moe_inputs(
        x, w_router, experts_w_in, experts_w_out, top_k
    )
    t_len, d = x.shape
    n_experts = w_router.shape[1]
    logits = x @ w_router  # (T, E)
    chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]  # (T, k)
    kept = np.take_along_axis(logits, chosen, axis=1)
    gates = np.zeros_like(logits)  # (T, E), 0 for every expert not chosen
    np.put_along_axis(gates, chosen, np.exp(kept - kept.max(axis=1, keepdims=True)), axis=1)
    gates /= gates.sum(axis=1, keepdims=True)
    y = np.zeros((t_len, d))
    with np.errstate(invalid="ignore"):  # 0 · NaN for an unchosen expert's NaN weights
        for e in range(n_experts):
            y += gates[:, e : e + 1] * position_wise_mlp(x, experts_w_in[e], experts_w_out[e])
    return y
