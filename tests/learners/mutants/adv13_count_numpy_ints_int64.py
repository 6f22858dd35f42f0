"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: transformer_parameter_count widens NumPy integer sizes to np.int64, so V*d wraps past 2**63."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def transformer_parameter_count(vocab, d_model, n_layer, d_ff, context_length, **kw):
    got = _base.transformer_parameter_count(vocab, d_model, n_layer, d_ff, context_length, **kw)
    if isinstance(vocab, np.integer) and isinstance(d_model, np.integer):
        with np.errstate(over="ignore"):
            got["embedding"] = int(np.int64(vocab) * np.int64(d_model))  # <- wraps
    return got
