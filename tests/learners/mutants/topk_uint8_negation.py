"""Mutant: top_k sorts -probs in the input's dtype (float64 only for the output): uint8 counts wrap, zeros rank first"""

# ruff: noqa  (a learner's file, kept as a learner writes it)
import math
import operator

import numpy as np
from _base import *


def top_k_renormalize(probs, k):
    raw = np.asarray(probs)
    p = np.asarray(probs, dtype=np.float64)
    if p.ndim != 1 or p.size == 0:
        raise ValueError("probs must be a non-empty vector")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be finite and >= 0")
    k = as_int("k", k, 1)
    if k > p.size:
        raise ValueError("k must be <= V")
    order = np.argsort(-raw, kind="stable")
    out = np.zeros_like(p)
    out[order[:k]] = p[order[:k]]
    return to_one(out)
