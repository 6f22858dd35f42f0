"""Fills the future with a large negative number instead of -inf."""

import numpy as np


def causal_masked_attention(scores):
    scores = np.asarray(scores, dtype=np.float64)
    t_len = scores.shape[-1]
    z = scores.copy()
    z[..., np.triu(np.ones((t_len, t_len), dtype=bool), k=1)] = -1e4
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
