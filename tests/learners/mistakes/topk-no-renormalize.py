"""Zeroes all but the k largest, and stops there."""

import numpy as np


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=np.float64)
    out = np.zeros_like(p)
    for i in np.argsort(-p, kind="stable")[:k]:
        out[i] = p[i]
    return out
