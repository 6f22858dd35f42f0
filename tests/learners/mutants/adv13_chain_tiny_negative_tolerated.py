"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: chain_rule_nll tolerates entries down to -1e-12 and clips them to 0."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def chain_rule_nll(joint, tokens):
    j = np.asarray(joint)
    if j.dtype.kind == "f" and np.all(j >= -1e-12):
        j = np.clip(j, 0, None)  # <- a tiny negative entry taken as 0
    return _base.chain_rule_nll(j, tokens)
