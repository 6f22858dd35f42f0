"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: giant_mlp_parameter_log10 takes np.log10(hidden): hidden = 2**64 is an object, not a float, and raises."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# giant_mlp_parameter_log10 takes np.log10(hidden): a hidden past uint64 (2**64) raises TypeError
def giant_mlp_parameter_log10(vocab, length, hidden):
    hidden = as_int("hidden", hidden, 1)
    return sequence_support_log10(vocab, length) + float(np.log10(hidden))
