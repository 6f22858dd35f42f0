"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: top_p_renormalize accepts only int and float p: p = np.float32(0.6) is refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


_orig_top_p = top_p_renormalize


def top_p_renormalize(probs, p):
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise ValueError("p must be a number")
    return _orig_top_p(probs, p)
