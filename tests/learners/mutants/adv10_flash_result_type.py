"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: flash_attention computes in np.result_type: long double q, k, v give a long double output."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def flash_attention(q, k, v, block):
    out = _base.flash_attention(q, k, v, block)
    return out.astype(np.result_type(np.asarray(q), np.asarray(k), np.asarray(v), np.float64))
