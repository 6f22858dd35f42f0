"""From an adversarial tester's twelfth held-out set (a false pass, now caught): BUGGY: chain_rule_nll tests int(t) != t, so a token of 1.0 (a float) is accepted."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def chain_rule_nll(joint, tokens):
    if all(isinstance(t, float) and t == int(t) for t in tokens if not isinstance(t, int)):
        tokens = [int(t) for t in tokens]  # <- a whole-number float taken as its int
    return _base.chain_rule_nll(joint, tokens)
