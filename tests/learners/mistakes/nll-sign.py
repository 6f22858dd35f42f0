"""Returns the sum of log-probabilities, forgetting the minus sign."""

import numpy as np


def chain_rule_nll(joint, tokens):
    joint = np.asarray(joint, dtype=np.float64)
    total = 0.0
    for t in range(len(tokens)):
        prefix = joint[tuple(tokens[:t])]
        conditional = prefix.sum(axis=tuple(range(1, prefix.ndim))) / prefix.sum()
        total += np.log(conditional[tokens[t]])
    return float(total)
