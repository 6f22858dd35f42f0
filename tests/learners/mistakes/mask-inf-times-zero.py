"""Builds an additive mask by multiplying the upper triangle with -inf."""

import numpy as np


def causal_masked_attention(scores):
    scores = np.asarray(scores, dtype=np.float64)
    t_len = scores.shape[-1]
    mask = np.triu(np.ones((t_len, t_len)), k=1) * -np.inf
    z = scores + mask
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
