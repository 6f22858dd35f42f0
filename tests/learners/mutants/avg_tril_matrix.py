"""Mutant: The prefix means as one (T, T) averaging matrix times x: the same function, but its
memory grows like T*T, where the chapter says the averaging model costs what T does. At
T = 16,384 it asked for 2 GiB and its claim was an error; it must fail, saying what the
claim needs. From an adversarial tester's correct set (c23_averaging_tril_matmul)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def averaging_model(x):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or 0 in x.shape:
        raise ValueError("x must be (T, d)")
    T = x.shape[0]
    A = np.tril(np.ones((T, T))) / np.arange(1, T + 1)[:, None]  # (T, T) averaging weights
    return A @ x
