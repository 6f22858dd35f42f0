"""Renormalizes the survivors with a softmax."""

import numpy as np


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=np.float64)
    keep = np.argsort(-p, kind="stable")[:k]
    out = np.zeros_like(p)
    out[keep] = np.exp(p[keep]) / np.exp(p[keep]).sum()
    return out
