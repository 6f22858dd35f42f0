"""Takes the softmax first, then zeroes the future."""

import numpy as np


def causal_masked_attention(scores):
    scores = np.asarray(scores, dtype=np.float64)
    t_len = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    probs[..., np.triu_indices(t_len, k=1)[0], np.triu_indices(t_len, k=1)[1]] = 0.0
    return probs
