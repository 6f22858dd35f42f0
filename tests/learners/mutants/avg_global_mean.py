"""Mutant: Every position gets the mean of the whole sequence: the future leaks."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def averaging_model(x):
    x = matrix("x", x)
    return np.broadcast_to(x.mean(axis=0), x.shape).copy()
