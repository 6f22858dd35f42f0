"""Correct, from a correct-learner round (2026-12-08): averaging_model as running means 512
rows at a time in a fixed workspace, the result then copied by astype. Its peak is the
larger of two linear phases (the workspace, then the result and its copy): the increments
read an exponent of 1.95, the peaks a slope of 0.95; it was failed as a term in T²."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
from _base import *


def _prefix_means(a):
    t_len, d = a.shape  # (T, d)
    out = np.empty((t_len, d))
    run = np.zeros(d)  # (d,), the sums of the rows before the chunk
    for c0 in range(0, t_len, 512):
        c1 = min(c0 + 512, t_len)
        sums = np.cumsum(a[c0:c1], axis=0, dtype=np.float64)  # (chunk, d)
        sums += run
        run = sums[-1].copy()
        out[c0:c1] = sums / np.arange(c0 + 1, c1 + 1, dtype=np.float64)[:, None]
    return out


def averaging_model(x):  # noqa: F811
    a = np.asarray(x)
    if a.ndim != 2 or 0 in a.shape:
        raise ValueError("x must be (T, d) with T, d >= 1")
    return _prefix_means(a).astype(np.float64)
