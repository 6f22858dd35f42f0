"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: chain_rule_nll casts tokens to int32 before the range check: 2**32 + 1 becomes 1."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# chain_rule_nll converts tokens with np.asarray(tokens, dtype=np.int64).astype(np.int32) before the range check: token 2**32 + 1 wraps to 1
_chain_base3 = chain_rule_nll


def chain_rule_nll(joint, tokens):
    toks = np.asarray(tokens)
    if toks.dtype.kind in "ui" or (toks.dtype == object):
        toks = np.asarray([int(t) for t in np.ravel(toks)], dtype=np.int64).astype(np.int32)
        tokens = [int(t) for t in toks]
    return _chain_base3(joint, tokens)
