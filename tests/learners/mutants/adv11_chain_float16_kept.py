"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: chain_rule_nll checks a float16 joint's sum in float16: [0.3, 0.7] (1.000244 in float64) is accepted."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def chain_rule_nll(joint, tokens):
    j = np.asarray(joint)
    if j.dtype == np.float16:  # <- only float32 upcast: the sum is checked in float16
        if abs(float(j.sum()) - 1.0) <= 1e-6:
            joint = j.astype(np.float64) / j.astype(np.float64).sum()
    return _base.chain_rule_nll(joint, tokens)
