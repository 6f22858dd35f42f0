"""From an adversarial tester's seventeenth held-out set (a false pass, now caught): BUGGY: transformer_parameter_count counts the FFN with np.prod in int64: 2**31 by 2**31 wraps."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def transformer_parameter_count(*args, **kwargs):
    counts = dict(_base.transformer_parameter_count(*args, **kwargs))
    names = ("vocab", "d_model", "n_layer", "d_ff", "context_length")
    given = dict(zip(names, args), **{k: v for k, v in kwargs.items() if k in names})
    d, d_ff = int(given["d_model"]), int(given["d_ff"])
    wrapped = int(np.prod(np.array([2, d, d_ff], dtype=np.int64)))
    change = wrapped - counts["ffn_per_layer"]
    if change:
        counts["ffn_per_layer"] += change
        counts["per_layer"] += change
        counts["total"] += change * int(given["n_layer"])
    return counts
