"""Divides the prefix sum at position t by t (0-based), not by t + 1."""

import numpy as np


def averaging_model(x):
    x = np.asarray(x, dtype=np.float64)
    out = np.zeros_like(x)
    for t in range(x.shape[0]):
        out[t] = x[: t + 1].sum(axis=0) / t
    return out
