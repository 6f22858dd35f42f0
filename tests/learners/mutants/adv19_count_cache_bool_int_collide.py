"""From an adversarial tester's nineteenth held-out set (a false pass, now caught): BUGGY: transformer_parameter_count keeps results in a dict keyed by its arguments' values, where True == 1: biases=1 after biases=True is answered, not refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_CACHE = {}


def transformer_parameter_count(vocab, d_model, n_layer, d_ff, context_length, **kwargs):
    key = (vocab, d_model, n_layer, d_ff, context_length, tuple(sorted(kwargs.items())))
    try:
        if key in _CACHE:
            return dict(_CACHE[key])
    except TypeError:  # an unhashable argument: no cache
        return _base.transformer_parameter_count(
            vocab, d_model, n_layer, d_ff, context_length, **kwargs
        )
    out = _base.transformer_parameter_count(vocab, d_model, n_layer, d_ff, context_length, **kwargs)
    _CACHE[key] = dict(out)
    return out
