"""Keeps the (T, T) averaging matrix in an anonymous mmap, which tracemalloc does not see:
the mapping counts toward the call's peak, and the averaging cost claim still fails."""

import mmap

import numpy as np
from reference_impl import *  # noqa: F403  (every function right; one is replaced below)


def averaging_model(x):
    x = np.asarray(x, dtype=np.float64)
    t_len = x.shape[0]
    buf = mmap.mmap(-1, t_len * t_len * 8)
    weights = np.frombuffer(buf, dtype=np.float64).reshape(t_len, t_len)
    for t in range(t_len):
        weights[t, : t + 1] = 1.0 / (t + 1)
    return weights @ x
