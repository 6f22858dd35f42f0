"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: top_k_renormalize computes in np.result_type: long double probs give a long double result."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def top_k_renormalize(probs, k):
    out = _base.top_k_renormalize(probs, k)
    return out.astype(np.result_type(np.asarray(probs), np.float64))  # <- long double stays
