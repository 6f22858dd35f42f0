"""From an adversarial tester's nineteenth held-out set (a false pass, now caught): BUGGY: kv_cache_bytes refuses NumPy unsigned integers (np.uint32) as sizes."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value=4):
    for v in (batch, length, n_layer, d_model, bytes_per_value):
        if isinstance(v, np.unsignedinteger):
            raise ValueError("sizes must be signed integers")
    return _base.kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value)
