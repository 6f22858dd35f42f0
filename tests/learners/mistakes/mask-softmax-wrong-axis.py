"""Normalizes down the columns (axis 0 of a T x T matrix)."""

import numpy as np


def causal_masked_attention(scores):
    scores = np.asarray(scores, dtype=np.float64)
    t_len = scores.shape[-1]
    z = np.where(np.triu(np.ones((t_len, t_len), dtype=bool), k=1), -np.inf, scores)
    e = np.exp(z - z.max(axis=-2, keepdims=True))
    return e / e.sum(axis=-2, keepdims=True)
