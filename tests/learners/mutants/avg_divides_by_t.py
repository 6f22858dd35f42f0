"""Mutant: Divides the running sum by the sequence length instead of the prefix length."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def averaging_model(x):
    x = matrix("x", x)
    return np.cumsum(x, axis=0) / x.shape[0]
