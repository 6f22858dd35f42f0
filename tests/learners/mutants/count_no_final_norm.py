"""Mutant: Counts the two LayerNorms of each layer and forgets the final one."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_count = transformer_parameter_count


def transformer_parameter_count(*args, **kwargs):
    table = _correct_count(*args, **kwargs)
    table["total"] -= table["final_norm"]
    table["final_norm"] = 0
    return table
