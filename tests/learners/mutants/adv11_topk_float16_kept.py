"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: top_k_renormalize keeps float16 probs in float16."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def top_k_renormalize(probs, k):
    out = _base.top_k_renormalize(probs, k)
    if np.asarray(probs).dtype == np.float16:
        return out.astype(np.float16)  # <- only float32 upcast: float16 keeps its precision
    return out
