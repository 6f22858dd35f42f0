"""Mutant: Counts the experts and forgets the router's d·E weights."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def moe_parameter_count(d_model, d_ff, n_experts):
    d, f, e = (
        as_int("d_model", d_model, 1),
        as_int("d_ff", d_ff, 1),
        as_int("n_experts", n_experts, 1),
    )
    return e * 2 * d * f
