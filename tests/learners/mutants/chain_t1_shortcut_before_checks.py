"""Mutant: chain_rule_nll: 'T = 1 is just -log joint[token]' shortcut before the sum check"""

# ruff: noqa  (a learner's file, kept as a learner writes it)
import math
import operator

import numpy as np
from _base import *

_orig_chain2 = chain_rule_nll


def chain_rule_nll(joint, tokens):
    p = np.asarray(joint, dtype=np.float64)
    if p.ndim == 1 and len(tokens) == 1:
        tok = as_int("token", tokens[0], 0)
        if tok >= p.size:
            raise ValueError("token out of range")
        return math.inf if p[tok] == 0 else -math.log(p[tok])
    return _orig_chain2(joint, tokens)
