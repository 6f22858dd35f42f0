"""From an adversarial tester's eighth held-out set (a false pass, now caught): BUGGY: chain_rule_nll converts tokens with int(), so 1.7 is taken as 1 where the contract raises ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def chain_rule_nll(joint, tokens):
    return _base.chain_rule_nll(joint, [int(t) for t in tokens])  # <- 1.7 becomes 1
