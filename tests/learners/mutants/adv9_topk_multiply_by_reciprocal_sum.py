"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: top_k_renormalize multiplies by 1/sum: a subnormal mass [5e-324, 0, 0] gives inf and NaN."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def top_k_renormalize(probs, k):
    kept = _base.top_k_renormalize(probs, k) > 0  # the tokens top-k keeps, arguments checked
    out = np.where(kept, np.asarray(probs, dtype=np.float64), 0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        return out * (1.0 / out.sum())  # <- 1/sum overflows for a subnormal sum
