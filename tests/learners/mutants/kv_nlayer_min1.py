"""Mutant: Requires n_layer >= 1; the contract allows n_layer = 0 (0 bytes). From an adversarial tester's second held-out set (kv_nlayer_min1)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_kv = kv_cache_bytes


def kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value=4):
    as_int("n_layer", n_layer, 1)
    return _correct_kv(batch, length, n_layer, d_model, bytes_per_value)
