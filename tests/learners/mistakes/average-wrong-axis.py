"""Runs the cumulative sum along the last axis."""

import numpy as np


def averaging_model(x):
    x = np.asarray(x, dtype=np.float64)
    counts = np.arange(1, x.shape[0] + 1)[:, None]
    return np.cumsum(x, axis=-1) / counts
