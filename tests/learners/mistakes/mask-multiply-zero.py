"""Masks the future by multiplying its scores by zero."""

import numpy as np


def causal_masked_attention(scores):
    scores = np.asarray(scores, dtype=np.float64)
    t_len = scores.shape[-1]
    masked = scores * np.tril(np.ones((t_len, t_len)))
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
