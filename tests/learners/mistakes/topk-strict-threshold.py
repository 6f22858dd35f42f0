"""Keeps the probabilities strictly above the k-th largest."""

import numpy as np


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=np.float64)
    threshold = np.sort(p)[::-1][k - 1]
    out = np.where(p > threshold, p, 0.0)
    return out / out.sum()
