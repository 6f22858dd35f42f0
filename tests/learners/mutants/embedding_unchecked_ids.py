"""Mutant: Never checks the ids: -1 silently reads the last row, floats are cast."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def embedding_lookup(tokens, table):
    return np.asarray(table, dtype=np.float64)[np.asarray(tokens).astype(np.int64)]
