"""Mutant: Multiplies the NumPy integers as they come: int32 wraps around."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value=4):
    if min(batch, length, n_layer, d_model) < 0 or bytes_per_value < 1:
        raise ValueError("sizes must be >= 0")
    return 2 * batch * length * n_layer * d_model * bytes_per_value
