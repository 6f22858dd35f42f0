"""Mutant: Accepts a joint whose sum is within 1e-3 of 1 (the contract: 1e-6). From an adversarial tester's second held-out set (chain_sum_tol_1e3)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_nll = chain_rule_nll


def chain_rule_nll(joint, tokens):
    p = np.asarray(joint, dtype=np.float64)
    if abs(p.sum() - 1.0) <= 1e-3:
        p = p / p.sum()  # within 1e-3: taken as a distribution
    return _correct_nll(p, tokens)
