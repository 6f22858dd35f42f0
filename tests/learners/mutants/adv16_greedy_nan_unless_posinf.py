"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: greedy_token refuses NaN only when no logit is +inf (a +inf wins anyway, the learner reasons): float32 [0, nan, inf] gives a token."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def greedy_token(logits):
    z = np.asarray(logits)
    if z.dtype.kind == "f" and z.ndim == 1 and np.isposinf(z).any():
        return int(np.flatnonzero(np.isposinf(z))[0])
    return _base.greedy_token(logits)
