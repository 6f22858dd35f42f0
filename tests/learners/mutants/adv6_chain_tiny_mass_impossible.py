"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: chain_rule_nll treats a prefix of probability below 1e-12 as impossible: joint [1 - 1e-13, 1e-13], tokens [1] gives inf instead of 29.93."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def chain_rule_nll(joint, tokens):
    nll = _base.chain_rule_nll(joint, tokens)
    p = np.asarray(joint, dtype=np.float64)
    if p.ndim == 1 and 0 < p[int(tokens[0])] < 1e-12:  # "numerically never produced"
        return float("inf")
    return nll
