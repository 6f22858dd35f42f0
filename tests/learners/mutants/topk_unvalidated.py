"""Mutant: Never checks its input: NaN or negative probabilities go through."""

# ruff: noqa: F401, F403, F405, E501
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
