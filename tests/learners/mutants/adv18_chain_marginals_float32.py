"""From an adversarial tester's eighteenth held-out set (a false pass, now caught): BUGGY: chain_rule_nll sums its marginals in float32: a prefix of probability 1e-50 underflows to 0 and the NLL is inf."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def chain_rule_nll(joint, tokens):
    _base.chain_rule_nll(joint, tokens)  # every check first
    p = np.asarray(joint, dtype=np.float64)
    idx = [int(t) for t in tokens]
    total = 0.0
    for t in range(p.ndim):
        tail = tuple(range(t + 1, p.ndim))
        marg = p.sum(axis=tail, dtype=np.float32) if tail else p
        num = float(marg[tuple(idx[: t + 1])])
        den = float(marg[tuple(idx[:t])].sum()) if t else 1.0
        if num == 0:
            return float("inf")
        total += np.log(den) - np.log(num)
    return float(total)
