"""Mutant: Names its last parameter bytes_per_element, not the contract's bytes_per_value: a call
by name raises TypeError. From an adversarial tester's second held-out set (kv_param_renamed)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_kv = kv_cache_bytes


def kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_element=4):
    return _correct_kv(batch, length, n_layer, d_model, bytes_per_element)
