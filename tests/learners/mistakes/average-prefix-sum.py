"""Accumulates the prefix and forgets to divide."""

import numpy as np


def averaging_model(x):
    x = np.asarray(x, dtype=np.float64)
    out = np.zeros_like(x)
    running = np.zeros(x.shape[1])
    for t in range(x.shape[0]):
        running = running + x[t]
        out[t] = running
    return out
