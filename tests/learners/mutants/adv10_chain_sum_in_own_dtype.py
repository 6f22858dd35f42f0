"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: chain_rule_nll checks a float32 joint's sum in float32: a joint whose float64 sum is 1 - 1e-6 is refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# chain_rule_nll tests the sum of a float32 joint in float32: a table within 1e-6 of 1 in float64 can be refused (and one off by 1.01e-6 accepted)
_chain_base = chain_rule_nll


def chain_rule_nll(joint, tokens):
    raw = np.asarray(joint)
    if (
        raw.dtype.kind == "f"
        and raw.size
        and np.all(np.isfinite(raw))
        and abs(float(raw.sum()) - 1.0) > 1e-6
    ):
        raise ValueError("joint must sum to 1")
    return _chain_base(joint, tokens)
