"""Mutant: giant_mlp: 'V^0 = 1' shortcut before validating vocab"""

# ruff: noqa  (a learner's file, kept as a learner writes it)
import math
import operator

import numpy as np
from _base import *


def giant_mlp_parameter_log10(vocab, length, hidden):
    hidden = as_int("hidden", hidden, 1)
    if length == 0:
        return math.log10(hidden)
    return sequence_support_log10(vocab, length) + math.log10(hidden)
