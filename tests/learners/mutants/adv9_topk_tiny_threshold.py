"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: top_k_renormalize takes a kept mass <= np.finfo(float64).tiny as none: 1e-310 is refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def top_k_renormalize(probs, k):
    out = _base.top_k_renormalize(probs, k)
    p = np.asarray(probs, dtype=np.float64)
    kept = np.where(out > 0, p, 0.0)
    if kept.sum() <= np.finfo(np.float64).tiny:  # <- "a subnormal mass is no mass"
        raise ValueError("nothing left to renormalize")
    return out
