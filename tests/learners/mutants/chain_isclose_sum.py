"""Mutant: Checks the joint's sum with np.isclose (a relative 1e-5), accepting joints the contract
refuses (off by more than 1e-6). From an adversarial tester's second held-out set (chain_isclose_sum)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_nll = chain_rule_nll


def chain_rule_nll(joint, tokens):
    p = np.asarray(joint, dtype=np.float64)
    if np.isclose(p.sum(), 1.0):
        p = p / p.sum()  # "close enough": rescaled, the correct code accepts it
    return _correct_nll(p, tokens)
