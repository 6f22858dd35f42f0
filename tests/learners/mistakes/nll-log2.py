"""Measures the NLL in bits: np.log2 of each conditional."""

import numpy as np


def chain_rule_nll(joint, tokens):
    joint = np.asarray(joint, dtype=np.float64)
    total = 0.0
    for t in range(len(tokens)):
        prefix = joint[tuple(tokens[:t])]  # (V,)*(T-t): everything that follows the prefix
        conditional = prefix.sum(axis=tuple(range(1, prefix.ndim))) / prefix.sum()
        total -= np.log2(conditional[tokens[t]])
    return float(total)
