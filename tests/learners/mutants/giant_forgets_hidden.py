"""Mutant: Forgets to multiply by the hidden width."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def giant_mlp_parameter_log10(vocab, length, hidden):
    as_int("hidden", hidden, 1)
    return sequence_support_log10(vocab, length)
