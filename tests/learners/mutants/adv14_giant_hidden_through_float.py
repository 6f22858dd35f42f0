"""From an adversarial tester's fourteenth held-out set (a false pass, now caught): BUGGY: giant_mlp_parameter_log10 adds math.log10(float(hidden)): OverflowError for a hidden past any float."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np
import math


def giant_mlp_parameter_log10(vocab, length, hidden):
    _base.giant_mlp_parameter_log10(vocab, length, hidden)  # its argument checks
    return _base.sequence_support_log10(vocab, length) + math.log10(float(hidden))
