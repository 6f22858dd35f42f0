"""From an adversarial tester's eighteenth held-out set (a false pass, now caught): BUGGY: chain_rule_nll caches the marginals of each prefix length by the joint's shape: a second joint of the same shape reuses the first's."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_MARGINALS = {}


def chain_rule_nll(joint, tokens):
    _base.chain_rule_nll(joint, tokens)  # every check first
    p = np.asarray(joint, dtype=np.float64)
    idx = [int(t) for t in tokens]
    total = 0.0
    for t in range(p.ndim):
        tail = tuple(range(t + 1, p.ndim))
        marg = _MARGINALS.setdefault((p.shape, t), p.sum(axis=tail) if tail else p)
        num = float(marg[tuple(idx[: t + 1])])
        den = float(marg[tuple(idx[:t])].sum()) if t else 1.0
        if num == 0:
            return float("inf")
        total += np.log(den) - np.log(num)
    return float(total)
