"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: layer_norm accepts only a Python float eps: eps = 1 or np.float32(1e-5) is refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# layer_norm accepts only a Python float eps: eps=1 (an int) or np.float32(1e-5) is refused with ValueError
_ln_base = layer_norm


def layer_norm(x, gain, bias, eps=1e-5):
    if not isinstance(eps, float):
        raise ValueError("eps must be a float > 0")
    return _ln_base(x, gain, bias, eps)
