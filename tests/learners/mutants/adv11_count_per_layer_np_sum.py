"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: transformer_parameter_count sums a layer's parameters with np.sum, which wraps past 2**63."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import inspect

from _base import *
import _base
import numpy as np


def transformer_parameter_count(*args, **kwargs):
    table = _base.transformer_parameter_count(*args, **kwargs)
    bound = inspect.signature(_base.transformer_parameter_count).bind(*args, **kwargs)
    # <- per_layer = int(np.sum([attention, ffn, norms])): an int64 sum, wrapping past 2**63
    per_layer = (table["per_layer"] + 2**63) % 2**64 - 2**63
    table["total"] += int(bound.arguments["n_layer"]) * (per_layer - table["per_layer"])
    table["per_layer"] = per_layer
    return table
