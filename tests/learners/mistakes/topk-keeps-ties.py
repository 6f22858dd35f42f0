"""Keeps every probability at least as large as the k-th largest."""

import numpy as np


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=np.float64)
    kth = sorted(p, reverse=True)[k - 1]
    out = np.where(p >= kth, p, 0.0)
    return out / out.sum()
