"""exp of the masked scores directly, with no max subtracted."""

import numpy as np


def causal_masked_attention(scores):
    scores = np.asarray(scores, dtype=np.float64)
    t_len = scores.shape[-1]
    z = np.where(np.triu(np.ones((t_len, t_len), dtype=bool), k=1), -np.inf, scores)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
