"""Mutant: Uses log10 for a negative log-likelihood in nats."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def chain_rule_nll(joint, tokens):
    p = np.asarray(joint, dtype=np.float64)
    if len(tokens) != p.ndim:
        raise ValueError("one token per position")
    return -math.log10(float(p[tuple(tokens)]))
