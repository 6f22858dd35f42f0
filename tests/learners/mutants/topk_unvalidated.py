"""Mutant: Never checks its input: NaN or negative probabilities go through."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=np.float64)
    k = as_int("k", k, 1)
    if k > p.size:
        raise ValueError("k must be <= V")
    keep = np.argsort(-p, kind="stable")[:k]
    out = np.zeros_like(p)
    out[keep] = p[keep]
    return out / out.sum()
