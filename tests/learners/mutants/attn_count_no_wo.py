"""Mutant: Counts W_Q, W_K, W_V and forgets the output projection W_O."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def attention_parameter_count(d_model, n_head):
    d, h = as_int("d_model", d_model, 1), as_int("n_head", n_head, 1)
    if d % h:
        raise ValueError("n_head must divide d_model")
    return 3 * d * d
