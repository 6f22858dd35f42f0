"""Mutant: Never checks that n_head divides d_model."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def attention_parameter_count(d_model, n_head):
    d, h = as_int("d_model", d_model, 1), as_int("n_head", n_head, 1)
    return 4 * d * d
