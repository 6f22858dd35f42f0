"""From an adversarial tester's fourth held-out set (a false pass, now caught): BUGGY: chain_rule_nll answers V = 1 ("the only sequence has probability 1") with 0.0 right
after the shape check, before checking the table's sum and the tokens: a (1, 1, 1) table
holding 0.9, or tokens [0, 1, 0], give 0.0 instead of ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def chain_rule_nll(joint, tokens):
    p = np.asarray(joint, dtype=np.float64)
    if p.ndim >= 1 and p.size == 1 and len(set(p.shape)) == 1:
        return 0.0  # <- shortcut before the other checks
    return _base.chain_rule_nll(joint, tokens)
