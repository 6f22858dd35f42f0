"""Multiplies each position's marginal, as if the tokens were independent."""

import numpy as np


def chain_rule_nll(joint, tokens):
    joint = np.asarray(joint, dtype=np.float64)
    total = 0.0
    for t, token in enumerate(tokens):
        axes = tuple(a for a in range(joint.ndim) if a != t)
        total -= np.log(joint.sum(axis=axes)[token])
    return float(total)
