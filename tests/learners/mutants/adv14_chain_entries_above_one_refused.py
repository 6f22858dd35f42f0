"""From an adversarial tester's fourteenth held-out set (a false pass, now caught): BUGGY: chain_rule_nll refuses any entry above 1 (a table summing to 1 within 1e-6 may hold 1 + 5e-7)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def chain_rule_nll(joint, tokens):
    if np.any(np.asarray(joint, dtype=np.float64) > 1):
        raise ValueError("probabilities must lie in [0, 1]")
    return _base.chain_rule_nll(joint, tokens)
