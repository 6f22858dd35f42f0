"""Correct, by other numerics: softmax through log-sum-exp in float64 rounded back to the
logits' dtype, GELU through its sigmoid identity 0.5·(1 + tanh z) = σ(2z), the mask as an
exp of the visible scores times a lower triangle, counts with math.prod, log10 as ln / ln 10.
"""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def softmax_temperature(logits, temperature):
    if isinstance(temperature, bool) or not isinstance(
        temperature, int | float | np.integer | np.floating
    ):
        raise ValueError("temperature must be a number")
    if not (math.isfinite(temperature) and temperature > 0):
        raise ValueError("temperature must be finite and > 0")
    z = np.asarray(logits)
    dtype = z.dtype if np.issubdtype(z.dtype, np.floating) else np.dtype(np.float64)
    if z.ndim == 0 or z.shape[-1] == 0 or z.size == 0 or not np.all(np.isfinite(z)):
        raise ValueError("logits must be non-empty and finite")
    w = (z.astype(np.float64) - z.max(axis=-1, keepdims=True)) / temperature
    lse = np.log(np.sum(np.exp(w), axis=-1, keepdims=True))
    return np.exp(w - lse).astype(dtype)


def position_wise_mlp(x, w_in, w_out):
    x, w_in, w_out = matrix("x", x), matrix("w_in", w_in), matrix("w_out", w_out)
    if x.shape[1] != w_in.shape[0] or w_in.shape[1] != w_out.shape[0]:
        raise ValueError("shapes do not chain")
    h = x @ w_in
    with np.errstate(over="ignore"):
        z = 2.0 * math.sqrt(2.0 / math.pi) * (h + 0.044715 * h**3)
        return (h / (1.0 + np.exp(-z))) @ w_out  # h·σ(2z) = 0.5·h·(1 + tanh z)


def causal_masked_attention(scores):
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim < 2 or s.shape[-1] != s.shape[-2] or s.shape[-1] == 0:
        raise ValueError("scores must be (..., T, T)")
    t = s.shape[-1]
    lower = np.tril(np.ones((t, t)))
    row_max = np.max(np.where(lower > 0, s, -np.inf), axis=-1, keepdims=True)
    e = np.exp(np.minimum(s - row_max, 0.0)) * lower  # the future: exactly 0
    return e / e.sum(axis=-1, keepdims=True)


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    sizes = [as_int(n, v, 0) for n, v in (("batch", batch), ("length", length), ("vocab", vocab))]
    return math.prod(sizes) * as_int("bytes_per_value", bytes_per_value, 1)


def attention_parameter_count(d_model, n_head):
    d, h = as_int("d_model", d_model, 1), as_int("n_head", n_head, 1)
    if d % h:
        raise ValueError("n_head must divide d_model")
    per_head = 3 * d * (d // h)  # each head's (d, d/H) slices of W_Q, W_K, W_V
    return h * per_head + d * d


def sequence_support_log10(vocab, length):
    v, t = as_int("vocab", vocab, 1), as_int("length", length, 0)
    return t * (math.log(v) / math.log(10))
