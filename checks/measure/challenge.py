"""Checks for challenge inputs: the same functions, on numbers no text could have printed.

A challenge derives its inputs from a nonce (see :mod:`checks.challenge`); these checks
simply return what the implementation computes on them, so a grader can recompute it.
"""

from __future__ import annotations

import numpy as np

from checks.measure.common import whole
from checks.pack import check
from runner.pack import Implementation, Measurements


@check("challenge_support", needs=("sequence_support_log10",), measures=("support_log10",))
def challenge_support(impl: Implementation, vocab: int, length: int) -> Measurements:
    """Stage 1 on a vocabulary and length derived from the nonce."""
    return {"support_log10": impl["sequence_support_log10"](vocab, length)}


@check("challenge_mask", needs=("causal_masked_attention",), measures=("weights",))
def challenge_mask(impl: Implementation, scores: list[list[float]]) -> Measurements:
    """Stage 5 on nonce-derived scores: the whole (T, T) weight matrix."""
    weights = impl["causal_masked_attention"](np.asarray(scores, dtype=np.float64))
    return {"weights": np.asarray(weights, dtype=np.float64).tolist()}


@check("challenge_temperature", needs=("softmax_temperature",), measures=("probs",))
def challenge_temperature(
    impl: Implementation, logits: list[float], temperature: float
) -> Measurements:
    """Stage 6 on nonce-derived logits and temperature."""
    probs = impl["softmax_temperature"](np.asarray(logits, dtype=np.float64), temperature)
    return {"probs": np.asarray(probs, dtype=np.float64).tolist()}


@check("challenge_top_k", needs=("top_k_renormalize",), measures=("probs",))
def challenge_top_k(impl: Implementation, probs: list[float], k: int) -> Measurements:
    """Stage 6 (top-k) on a nonce-derived probability vector and k."""
    out = impl["top_k_renormalize"](np.asarray(probs, dtype=np.float64), k)
    return {"probs": np.asarray(out, dtype=np.float64).tolist()}


@check("challenge_logits_memory", needs=("logits_memory_bytes",), measures=("bytes",))
def challenge_logits_memory(
    impl: Implementation, batch: int, length: int, vocab: int
) -> Measurements:
    """Stage 7 on a nonce-derived (B, T, V) in FP32."""
    return {"bytes": whole(impl["logits_memory_bytes"](batch, length, vocab, 4))}
