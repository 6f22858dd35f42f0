"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: greedy_token raises when every logit is -inf (the contract picks the first)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


_orig_g = greedy_token


def greedy_token(logits):
    z = np.asarray(logits)
    if z.ndim == 1 and z.size and z.dtype.kind == "f" and np.all(np.isneginf(z)):
        raise ValueError("every logit is -inf: nothing to choose")
    return _orig_g(logits)
