"""From an adversarial tester's nineteenth held-out set (a false pass, now caught): BUGGY: chain_rule_nll refuses Python bools only, and np.True_ raises TypeError from operator.index instead of ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

import operator


def chain_rule_nll(joint, tokens):
    if any(type(t) is np.bool_ for t in tokens):
        operator.index(1.5)  # what an unguarded operator.index does with a NumPy bool here
    return _base.chain_rule_nll(joint, tokens)
