"""Mutant: Multiplies by the table without transposing it."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def output_head(h, table):
    return np.asarray(h, dtype=np.float64) @ np.asarray(table, dtype=np.float64)
