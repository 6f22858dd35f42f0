"""Correct, from an adversarial tester's fourth held-out set: causal_masked_attention with NumPy's masked arrays (np.ma), the library's own
tool for "these entries do not exist": the future is masked out of the domain (the chapter's
"deletion" reading), the max and the sum run over the visible entries only, and the result is
filled with exact zeros where the future was. numpy.ma is imported lazily by NumPy on first
use (about 1.2 MB of Python objects)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import numpy as np


def causal_masked_attention(scores):
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim < 2 or s.shape[-1] != s.shape[-2] or s.shape[-1] == 0:
        raise ValueError("scores must be (..., T, T)")
    t = s.shape[-1]
    future = np.broadcast_to(np.triu(np.ones((t, t), dtype=bool), k=1), s.shape)
    m = np.ma.masked_array(s, mask=future)
    z = m - m.max(axis=-1, keepdims=True)
    e = np.ma.exp(z)
    w = e / e.sum(axis=-1, keepdims=True)
    return np.ma.filled(w, 0.0)
