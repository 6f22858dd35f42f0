"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: top_p_renormalize takes p = True as 1."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def top_p_renormalize(probs, p):
    if isinstance(p, bool | np.bool_):
        p = float(p)  # <- isinstance(p, numbers.Real): a bool is a Real too
    return _base.top_p_renormalize(probs, p)
