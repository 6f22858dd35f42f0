"""Mutant: Starts the chain at the second token: P(x_0) is left out."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def chain_rule_nll(joint, tokens):
    p = np.asarray(joint, dtype=np.float64)
    if len(tokens) != p.ndim:
        raise ValueError("one token per position")
    total = 0.0
    for t in range(1, p.ndim):
        tail = tuple(range(t + 1, p.ndim))
        marg = p.sum(axis=tail) if tail else p
        total -= math.log(marg[tuple(tokens[: t + 1])] / marg[tuple(tokens[:t])].sum())
    return total
