"""Takes the first k of an ascending argsort."""

import numpy as np


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=np.float64)
    keep = np.argsort(p)[:k]
    out = np.zeros_like(p)
    out[keep] = p[keep]
    return out / out.sum()
