"""Mutant: Returns probabilities, a softmax of the logits, instead of the logits."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def output_head(h, table):
    h, table = matrix("h", h), matrix("table", table)
    if h.shape[1] != table.shape[1]:
        raise ValueError("h and table must have the same width")
    return softmax_rows(h @ table.T)
