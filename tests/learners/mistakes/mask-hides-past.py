"""Hides the lower triangle instead of the upper one."""

import numpy as np


def causal_masked_attention(scores):
    scores = np.asarray(scores, dtype=np.float64)
    t_len = scores.shape[-1]
    hidden = np.tril(np.ones((t_len, t_len), dtype=bool), k=-1)
    z = np.where(hidden, -np.inf, scores)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
