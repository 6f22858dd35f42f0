"""Builds the (T, T) averaging matrix, then resets tracemalloc's peak before returning, so the
matrix would vanish from the measured peak: the averaging cost claim still fails."""

import tracemalloc

import numpy as np
from reference_impl import *  # noqa: F403  (every function right; one is replaced below)


def averaging_model(x):
    x = np.asarray(x, dtype=np.float64)
    t_len = x.shape[0]
    out = (np.tril(np.ones((t_len, t_len))) / np.arange(1, t_len + 1)[:, None]) @ x
    tracemalloc.reset_peak()
    return out
