"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: chain_rule_nll takes a mass below np.finfo(float64).tiny as impossible (inf): 1e-310 is possible."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def chain_rule_nll(joint, tokens):
    p = np.asarray(joint, dtype=np.float64)
    if p.ndim < 1 or p.size == 0 or len(set(p.shape)) != 1:
        raise ValueError("joint must be (V,)*T")
    if not np.all(np.isfinite(p)) or np.any(p < 0) or abs(p.sum() - 1.0) > 1e-6:
        raise ValueError("joint must hold finite, non-negative probabilities summing to 1")
    if len(tokens) != p.ndim:
        raise ValueError("one token per position")
    idx = [as_int("token", t, 0) for t in tokens]
    if max(idx) >= p.shape[0]:
        raise ValueError("token out of range")
    total = 0.0
    for t in range(p.ndim):
        tail = tuple(range(t + 1, p.ndim))
        marg = p.sum(axis=tail) if tail else p
        num = marg[tuple(idx[: t + 1])]
        den = marg[tuple(idx[:t])].sum() if t else 1.0
        if num < np.finfo(np.float64).tiny:  # below the smallest normal float: probability 0
            return math.inf
        total += math.log(den) - math.log(num)
    return float(total)
