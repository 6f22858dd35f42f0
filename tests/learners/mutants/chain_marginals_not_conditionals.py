"""Mutant: Multiplies the marginals P(x_<=t) instead of the conditionals P(x_t | x_<t)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def chain_rule_nll(joint, tokens):
    p = np.asarray(joint, dtype=np.float64)
    if len(tokens) != p.ndim:
        raise ValueError("one token per position")
    total = 0.0
    for t in range(1, p.ndim + 1):
        tail = tuple(range(t, p.ndim))
        marg = p.sum(axis=tail) if tail else p
        total -= math.log(float(marg[tuple(tokens[:t])]))
    return total
