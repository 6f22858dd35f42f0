"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: chain_rule_nll accepts a float32 token array whose values are whole, casting it to int64."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def chain_rule_nll(joint, tokens):
    arr = np.asarray(tokens)
    if arr.dtype == np.float32 and arr.size and np.all(arr == np.round(arr)):
        tokens = arr.astype(np.int64)
    return _base.chain_rule_nll(joint, tokens)
