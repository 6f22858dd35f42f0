"""Averages over the whole sequence: every row is the same mean."""

import numpy as np


def averaging_model(x):
    x = np.asarray(x, dtype=np.float64)
    return np.tile(x.mean(axis=0), (x.shape[0], 1))
