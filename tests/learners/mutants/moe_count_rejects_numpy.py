"""Mutant: Accepts only Python ints: a NumPy integer is refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def moe_parameter_count(d_model, d_ff, n_experts):
    for value in (d_model, d_ff, n_experts):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError("sizes must be integers >= 1")
    return d_model * n_experts + n_experts * 2 * d_model * d_ff
