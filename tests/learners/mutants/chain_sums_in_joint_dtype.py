"""Mutant: chain_rule_nll sums the marginals in the joint's own dtype: a float32 table gives
float32 marginals and an NLL that is only float32-accurate. The contract: computed in
float64 whatever the table's dtype. Caught by the float32 case of contract.chain-rule-nll
(issue 22)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def chain_rule_nll(joint, tokens):
    p = np.asarray(joint)
    if p.dtype.kind != "f":
        p = p.astype(np.float64)
    if p.ndim < 1 or p.size == 0 or len(set(p.shape)) != 1:
        raise ValueError("joint must be (V,)*T")
    if (
        not np.all(np.isfinite(p))
        or np.any(p < 0)
        or abs(float(p.astype(np.float64).sum()) - 1.0) > 1e-6
    ):
        raise ValueError("joint must hold finite, non-negative probabilities summing to 1")
    if len(tokens) != p.ndim:
        raise ValueError("one token per position")
    idx = [as_int("token", t, 0) for t in tokens]
    if max(idx) >= p.shape[0]:
        raise ValueError("token out of range")
    total = 0.0
    for t in range(p.ndim):
        tail = tuple(range(t + 1, p.ndim))
        marg = p.sum(axis=tail) if tail else p  # float32 for a float32 table
        num = marg[tuple(idx[: t + 1])]
        den = marg[tuple(idx[:t])].sum() if t else 1.0
        if num == 0:
            return math.inf
        total += math.log(den) - math.log(num)
    return float(total)
