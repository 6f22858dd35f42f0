"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: chain_rule_nll answers 0 for no tokens before checking the joint (an empty sequence has probability 1): a 0-d joint is not refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def chain_rule_nll(joint, tokens):
    if len(tokens) == 0 and np.ndim(joint) == 0:
        return 0.0
    return _base.chain_rule_nll(joint, tokens)
