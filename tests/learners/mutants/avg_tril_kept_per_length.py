"""Mutant: averaging_model multiplies by a (T, T) averaging matrix (np.tril / counts) that it
keeps from call to call, keyed by T: built once per length, its T² peak fell in the
unmeasured call structure.averaging-cost made first with the same x, and passed (a
buggy-learner round, 2026-12-07). Caught since the unmeasured call has one row more."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
from _base import *

_AVERAGING = {}


def averaging_model(x):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError("x must be (T, d)")
    t_len = x.shape[0]
    weights = _AVERAGING.get(t_len)
    if weights is None:  # built once per length, reused by later calls
        weights = np.tril(np.ones((t_len, t_len))) / np.arange(1, t_len + 1.0)[:, None]
        _AVERAGING.clear()
        _AVERAGING[t_len] = weights
    return weights @ x
