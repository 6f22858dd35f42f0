"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: chain_rule_nll refuses Python float tokens only and casts the rest with int(): np.float32(1.7) becomes token 1, True token 1."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def chain_rule_nll(joint, tokens):
    if any(isinstance(x, float) for x in tokens):
        raise ValueError("tokens must be integers")
    return _base.chain_rule_nll(joint, [int(x) for x in tokens])
