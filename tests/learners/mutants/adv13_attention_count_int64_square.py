"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: attention_parameter_count computes 4*d*d in np.int64 for a NumPy d, so it wraps past 2**63."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def attention_parameter_count(d_model, n_head):
    got = _base.attention_parameter_count(d_model, n_head)
    if isinstance(d_model, np.integer):
        with np.errstate(over="ignore"):
            return int(4 * np.int64(d_model) * np.int64(d_model))  # <- wraps
    return got
