"""Mutant: No range check below 0 on the tokens: a token of -1 silently reads the last slice
(NumPy's negative index) instead of raising ValueError. From an adversarial tester's
held-out set (v_chain_negative_token_wraps)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def chain_rule_nll(joint, tokens):
    p = np.asarray(joint, dtype=np.float64)
    T = p.ndim
    if T < 1 or len(set(p.shape)) != 1 or not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("joint")
    if abs(p.sum() - 1.0) > 1e-6:
        raise ValueError("joint must sum to 1")
    if len(tokens) != T:
        raise ValueError("tokens must have length T")
    idx = tuple(int(t) for t in tokens)  # no check below 0: -1 silently reads the last slice
    if max(idx) >= p.shape[0]:
        raise ValueError("token >= V")
    nll, prev = 0.0, 1.0
    for t in range(1, T + 1):
        marg = p.sum(axis=tuple(range(t, T))) if t < T else p
        mass = float(marg[idx[:t]])
        if mass == 0.0:
            return math.inf
        nll -= math.log(mass / prev)
        prev = mass
    return nll
