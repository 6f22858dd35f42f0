"""Mutant: Writes the chapter's formula H·4·(d/H)·d with true division: a float, not a count."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def attention_parameter_count(d_model, n_head):
    d, h = as_int("d_model", d_model, 1), as_int("n_head", n_head, 1)
    if d % h:
        raise ValueError("n_head must divide d_model")
    return h * 4 * (d / h) * d
