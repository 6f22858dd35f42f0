"""Mutant: Counts the first layer's biases too, hidden·(V^T + 1): the contract counts weights only."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def giant_mlp_parameter_log10(vocab, length, hidden):
    v, t, h = as_int("vocab", vocab, 1), as_int("length", length, 0), as_int("hidden", hidden, 1)
    return t * math.log10(v) + math.log10(h) + math.log10(1 + v ** (-t) if t < 60 else 1.0)
