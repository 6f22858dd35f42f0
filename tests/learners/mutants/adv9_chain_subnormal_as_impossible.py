"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: chain_rule_nll takes a mass below np.finfo(float64).tiny as impossible (inf): 1e-310 is possible."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def chain_rule_nll(joint, tokens):
    nll = _base.chain_rule_nll(joint, tokens)  # the base's checks
    p = np.asarray(joint, dtype=np.float64)
    idx = [int(t) for t in tokens]
    for t in range(p.ndim):
        tail = tuple(range(t + 1, p.ndim))
        prefix = (p.sum(axis=tail) if tail else p)[tuple(idx[: t + 1])]
        if prefix < np.finfo(np.float64).tiny:  # <- below the smallest normal: "probability 0"
            return math.inf
    return nll
