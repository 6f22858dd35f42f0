"""From an adversarial tester's seventeenth held-out set (a false pass, now caught): BUGGY: layer_norm refuses an eps that is not a Python float or int: np.int64(1), a NumPy real number the contract admits, is a ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def layer_norm(x, gain, bias, eps=1e-5):
    if isinstance(eps, np.integer):
        raise ValueError(f"eps must be a real number, got {eps!r}")
    return _base.layer_norm(x, gain, bias, eps)
