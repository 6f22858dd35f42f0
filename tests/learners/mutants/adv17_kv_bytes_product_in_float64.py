"""From an adversarial tester's seventeenth held-out set (a false pass, now caught): BUGGY: kv_cache_bytes takes the product in float64 and casts it back: past 2**53 the count is rounded."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value=4):
    _base.kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value)  # its checks
    return int(np.prod([2.0, batch, length, n_layer, d_model, bytes_per_value], dtype=np.float64))
