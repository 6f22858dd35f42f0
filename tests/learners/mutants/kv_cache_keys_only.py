"""Mutant: Counts the keys and forgets the values: no factor 2."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value=4):
    sizes = [as_int("size", v, 0) for v in (batch, length, n_layer, d_model)]
    return math.prod(sizes) * as_int("bytes_per_value", bytes_per_value, 1)
