"""The chapter's fault table as code: each mistake is a broken twin of one subject.

Every twin is written the way a person really makes the mistake, then registered under the
fault's id in the same registry as the reference. Injecting a fault builds an implementation
where the twin stands in for the subject (and for every reference function that calls it);
the reference code is never edited or branched on a flag.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from checks.reference.params import Positions
from checks.registry import twin

Array = NDArray[np.float64]


@twin("vt-as-v-times-t", replaces="sequence_support_log10")
def support_as_product(vocab: int, length: int) -> float:
    """Reads 'V tokens, T positions' as V·T sequences instead of V^T."""
    return math.log10(vocab * length)


@twin("giant-mlp-missing-input-width", replaces="giant_mlp_parameter_log10")
def giant_mlp_one_token_input(vocab: int, length: int, hidden: int) -> float:
    """Sizes the MLP's input as one token's one-hot (V) and forgets it must see V^T sequences."""
    return math.log10(vocab * hidden)


@twin("params-include-context", replaces="transformer_parameter_count")
def parameter_count_with_attention_matrix(
    vocab: int,
    d_model: int,
    n_layer: int,
    d_ff: int,
    context_length: int,
    *,
    n_head: int = 12,
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
    attention_matrix = context_length * context_length
    table["attention_per_layer"] += attention_matrix
    table["per_layer"] += attention_matrix
    table["total"] += n_layer * attention_matrix
    return table


@twin("heads-as-copies", replaces="attention_parameter_count")
def attention_parameters_per_copy(d_model: int, n_head: int) -> int:
    """Counts H heads as H full copies of a d-wide attention, 4d² each."""
    return n_head * 4 * d_model * d_model


@twin("mask-multiply-zero", replaces="causal_masked_attention")
def causal_mask_by_multiplying(scores: Array) -> Array:
    """Multiplies the future scores by 0 instead of setting them to -inf, then softmaxes."""
    scores = np.asarray(scores, dtype=np.float64)
    t_len = scores.shape[-1]
    visible = np.tril(np.ones((t_len, t_len)))  # (T, T): 1 where s <= t
    z = scores * visible  # the future is now a score of 0, not -inf: exp(0) is not 0
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    out: Array = e / e.sum(axis=-1, keepdims=True)
    return out


@twin("mask-no-renormalize", replaces="causal_masked_attention")
def causal_mask_after_softmax(scores: Array) -> Array:
    """Softmaxes over all T keys, then zeroes the future and stops there."""
    scores = np.asarray(scores, dtype=np.float64)
    t_len = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)  # (..., T, T) over every key, future included
    out: Array = weights * np.tril(np.ones((t_len, t_len)))
    return out


@twin("temperature-zero", replaces="softmax_temperature")
def softmax_temperature_unguarded(logits: NDArray[np.floating], temperature: float) -> Array:
    """The reference without its T <= 0 guard: divides by whatever T it is given."""
    z = np.asarray(logits)
    if not np.issubdtype(z.dtype, np.floating):
        z = z.astype(np.float64)
    z = z / np.asarray(temperature, dtype=z.dtype)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: Array = e / e.sum(axis=-1, keepdims=True)
    return out


@twin("low-temperature-underflow", replaces="softmax_temperature")
def softmax_temperature_half(logits: NDArray[np.floating], temperature: float) -> Array:
    """Runs the softmax in float16 'to save memory': the tail underflows long before float64's."""
    if not math.isfinite(temperature) or temperature <= 0:
        raise ValueError(f"temperature must be a finite number > 0, got {temperature}")
    z = np.asarray(logits).astype(np.float16)
    z = z / np.float16(temperature)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: Array = (e / e.sum(axis=-1, keepdims=True)).astype(np.float64)
    return out


@twin("topk-no-renormalize", replaces="top_k_renormalize")
def top_k_zero_only(probs: Array, k: int) -> Array:
    """Zeroes everything but the k largest and forgets to rescale the survivors."""
    p = np.asarray(probs, dtype=np.float64)
    keep = np.argsort(-p, kind="stable")[:k]
    out = np.zeros_like(p)
    out[keep] = p[keep]
    return out


@twin("flash-no-rescale", replaces="flash_attention")
def flash_attention_without_rescale(
    q: Array, k: Array, v: Array, block: int
) -> tuple[Array, dict[str, int]]:
    """Tiled attention that tracks the running max but never rescales the sums already taken
    under the old max: exp(s − m_old) and exp(s − m_new) terms end up added together."""
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    t_len, d = q.shape
    out = np.empty((t_len, v.shape[1]))
    multiply_adds = largest = 0
    for i0 in range(0, t_len, block):
        i1 = min(i0 + block, t_len)
        m = np.full(i1 - i0, -np.inf)
        l_sum = np.zeros(i1 - i0)
        acc = np.zeros((i1 - i0, v.shape[1]))
        for j0 in range(0, i1, block):
            j1 = min(j0 + block, t_len)
            s = q[i0:i1] @ k[j0:j1].T / math.sqrt(d)  # (Bq, Bk)
            future = np.arange(j0, j1)[None, :] > np.arange(i0, i1)[:, None]
            s = np.where(future, -np.inf, s)
            m = np.maximum(m, s.max(axis=1))
            p = np.exp(s - m[:, None])
            l_sum = l_sum + p.sum(axis=1)  # the old sum was taken under the old max
            acc = acc + p @ v[j0:j1]
            multiply_adds += 2 * (i1 - i0) * (j1 - j0) * d
            largest = max(largest, s.size, acc.size)
        out[i0:i1] = acc / l_sum[:, None]
    return out, {"multiply_adds": multiply_adds, "largest_temporary": largest}


@twin("linear-attention-global-sums", replaces="linear_attention")
def linear_attention_noncausal(q: Array, k: Array, v: Array) -> tuple[Array, dict[str, int]]:
    """The linear-attention formula as usually printed, φ(Q)(φ(K)ᵀV) / φ(Q)(φ(K)ᵀ1): the
    sums run over all T keys at once instead of the prefix, so every position sees the future.
    """
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    t_len, d = q.shape
    phi_q = np.where(q > 0, q + 1.0, np.exp(np.minimum(q, 0.0)))  # (T, d)
    phi_k = np.where(k > 0, k + 1.0, np.exp(np.minimum(k, 0.0)))  # (T, d)
    state = phi_k.T @ v  # (d, d_v), over every position
    norm = phi_k.sum(axis=0)  # (d,)
    out: Array = (phi_q @ state) / (phi_q @ norm)[:, None]
    d_v = v.shape[1]
    cost = {"multiply_adds": t_len * (2 * d * d_v + d), "largest_temporary": t_len * d}
    return out, cost


@twin("moe-dense-experts", replaces="moe_layer")
def moe_layer_all_experts(
    x: Array, w_router: Array, experts_w_in: Array, experts_w_out: Array, top_k: int
) -> tuple[Array, dict[str, int]]:
    """Runs every expert on every token and zeroes the gates of the unchosen ones: the same
    output as routing, and none of the saving."""
    from checks.reference.attention import position_wise_mlp

    x = np.asarray(x, dtype=np.float64)  # (T, d)
    t_len, d = x.shape
    n_experts, _, d_ff = np.shape(experts_w_in)
    logits = x @ w_router  # (T, E)
    chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]  # (T, k)
    kept = np.take_along_axis(logits, chosen, axis=1)
    gates = np.zeros_like(logits)  # (T, E), 0 for every expert not chosen
    np.put_along_axis(gates, chosen, np.exp(kept - kept.max(axis=1, keepdims=True)), axis=1)
    gates /= gates.sum(axis=1, keepdims=True)
    y = np.zeros((t_len, d))
    for e in range(n_experts):
        y += gates[:, e : e + 1] * position_wise_mlp(x, experts_w_in[e], experts_w_out[e])
    cost = {
        "router": t_len * d * n_experts,
        "experts": n_experts * t_len * 2 * d * d_ff,
        "combine": n_experts * t_len * d,
    }
    return y, cost
