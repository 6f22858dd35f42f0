"""Mutant: Divides marginals without looking for a zero: a prefix of probability exactly 0 gives
0/0 = NaN where the contract says +inf. From an adversarial tester's held-out set
(p_chain_nan_for_impossible)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def chain_rule_nll(joint, tokens):
    joint = np.asarray(joint, dtype=np.float64)
    t_len = joint.ndim
    if t_len < 1 or len(set(joint.shape)) != 1 or not np.all(np.isfinite(joint)):
        raise ValueError("joint")
    if abs(joint.sum() - 1) > 1e-6 or (joint < 0).any():
        raise ValueError("joint")
    if len(tokens) != t_len:
        raise ValueError("length")
    idx = tuple(as_int("token", t, 0) for t in tokens)
    if max(idx) >= joint.shape[0]:
        raise ValueError("token")
    nll, prev = 0.0, np.float64(1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        for t in range(1, t_len + 1):
            marginal = joint.sum(axis=tuple(range(t, t_len))) if t < t_len else joint
            mass = marginal[idx[:t]]
            nll -= np.log(mass / prev)  # 0/0 = NaN once a prefix has probability 0
            prev = mass
    return float(nll)
