"""From an adversarial tester's twentieth held-out set (a false pass, now caught): BUGGY: chain_rule_nll reads tokens through np.asarray: [0, True] becomes int64 and True is token 1."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def chain_rule_nll(joint, tokens):
    if isinstance(tokens, list) and tokens and not all(isinstance(t, bool) for t in tokens):
        tokens = np.asarray(tokens).tolist()  # [0, True] -> [0, 1]
    return _base.chain_rule_nll(joint, tokens)
