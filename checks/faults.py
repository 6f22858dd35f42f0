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
