"""Correct: tables cached by their arguments and handed out again, the same array object for
the same arguments (positions, and the causal mask's pattern kept inside the mask). Nothing
writes into them, so no caller's earlier result changes: the contract's rule on earlier
results (a call never changes what an earlier call returned) holds, though two calls return
one object. Kept beside the shared-buffer mutants (adv16_*_shared_output), which write each
new result into the array they returned before, and fail."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_POSITIONS = {}


def sinusoidal_positions(length, d_model):
    # keyed by type too: True is 1 as a dict key, and a bool is refused, never looked up
    key = (type(length), length, type(d_model), d_model)
    if key not in _POSITIONS:
        _POSITIONS[key] = _base.sinusoidal_positions(length, d_model)
    return _POSITIONS[key]


_FUTURE = {}


def causal_masked_attention(scores):
    scores = np.asarray(scores)
    if scores.ndim < 2 or scores.shape[-1] != scores.shape[-2] or scores.shape[-1] == 0:
        return _base.causal_masked_attention(scores)  # its checks
    t_len = scores.shape[-1]
    if t_len not in _FUTURE:
        _FUTURE[t_len] = np.triu(np.ones((t_len, t_len), dtype=bool), k=1)
    return _base.causal_masked_attention(np.where(_FUTURE[t_len], -np.inf, scores))
