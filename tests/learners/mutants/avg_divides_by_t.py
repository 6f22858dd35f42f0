"""Mutant: Divides the running sum by the sequence length instead of the prefix length."""

# ruff: noqa: F401, F403, F405, E501
import math

import numpy as np

from _base import *


def averaging_model(x):
    x = matrix("x", x)
    return np.cumsum(x, axis=0) / x.shape[0]
