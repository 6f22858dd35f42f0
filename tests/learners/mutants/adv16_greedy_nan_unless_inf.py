"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: greedy_token looks for NaN only when no logit is infinite (NaN tested through the sum, which an inf already makes non-finite): [nan, inf] gives a token instead of a ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def greedy_token(logits):
    z = np.asarray(logits)
    if z.dtype.kind == "f" and z.ndim == 1 and z.size and np.isinf(z).any():
        return int(np.argmax(z))
    return _base.greedy_token(logits)
