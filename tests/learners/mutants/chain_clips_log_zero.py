"""Mutant: Clips the probability before its log (max(p, 1e-300)), a common guard against
log 0: a sequence of probability 0 gets a large finite NLL (about 690.8 nats) where the
contract says +inf. Found by the comparison engine's review: a finite answer never matches
the reference's +inf."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def chain_rule_nll(joint, tokens):
    joint = np.asarray(joint, dtype=np.float64)
    t_len = joint.ndim
    if t_len < 1 or joint.size == 0 or len(set(joint.shape)) != 1:
        raise ValueError("joint")
    if not np.all(np.isfinite(joint)) or (joint < 0).any():
        raise ValueError("joint")
    if abs(float(joint.sum()) - 1) > 1e-6:
        raise ValueError("joint")
    if len(tokens) != t_len:
        raise ValueError("length")
    idx = tuple(as_int("token", t, 0) for t in tokens)
    if max(idx) >= joint.shape[0]:
        raise ValueError("token")
    nll, prev = 0.0, 1.0
    for t in range(1, t_len + 1):
        marginal = joint.sum(axis=tuple(range(t, t_len))) if t < t_len else joint
        mass = float(marginal[idx[:t]])
        nll -= math.log(max(mass, 1e-300)) - math.log(max(prev, 1e-300))
        prev = mass
    return float(nll)
