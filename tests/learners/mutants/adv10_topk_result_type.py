"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: top_k_renormalize computes in np.result_type: long double probs give a long double result."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# top_k_renormalize computes in np.result_type(probs, float64): longdouble probs give a longdouble result
def top_k_renormalize(probs, k):
    p0 = np.asarray(probs)
    p = p0.astype(np.result_type(p0.dtype, np.float64))
    if p.ndim != 1 or p.size == 0:
        raise ValueError("probs must be a non-empty vector")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be finite and >= 0")
    k = as_int("k", k, 1)
    if k > p.size:
        raise ValueError("k must be <= V")
    order = np.argsort(-p, kind="stable")
    out = np.zeros_like(p)
    out[order[:k]] = p[order[:k]]
    return to_one(out)
