"""From an adversarial tester's fourteenth held-out set (a false pass, now caught): BUGGY: attention_parameter_count tests divisibility with (d_model / n_head).is_integer(): 2**60 + 1 'divides' by 3 in floats."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np
import operator


def attention_parameter_count(d_model, n_head):
    d, h = operator.index(d_model), operator.index(n_head)
    if d >= 1 and h >= 1 and (d / h).is_integer():
        return 4 * d * d
    return _base.attention_parameter_count(d_model, n_head)
