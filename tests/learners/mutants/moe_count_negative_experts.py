"""Mutant: moe_parameter_count refuses sizes == 0 only: negative sizes accepted"""

# ruff: noqa  (a learner's file, kept as a learner writes it)
import math
import operator

import numpy as np
from _base import *


def moe_parameter_count(d_model, d_ff, n_experts):
    d, ff, e = operator.index(d_model), operator.index(d_ff), operator.index(n_experts)
    if 0 in (d, ff, e):
        raise ValueError("sizes must be >= 1")
    return d * e + e * (d * ff + ff * d)
