"""Mutant: chain_rule_nll takes the first conditional as marginal / total, so the product is
the entry divided by the table's sum: for a table summing to 1 ± 5e-7 the NLL is off by up
to 5e-7 nats. The contract (decided in issue 22): the empty prefix has probability 1 and
P(tokens) is the table's entry as given. Caught by the 1 ± 5e-7 cases of
contract.chain-rule-nll."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


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
        den = marg[tuple(idx[:t])].sum() if t else marg.sum()  # the whole table's mass
        if num == 0:
            return math.inf
        total += math.log(den) - math.log(num)
    return float(total)
