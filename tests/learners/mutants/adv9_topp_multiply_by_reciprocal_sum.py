"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: top_p_renormalize multiplies by 1/sum: a subnormal mass [5e-324, 0, 0] gives inf and NaN."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def to_one(out):
    if not out.max() > 0:
        raise ValueError("nothing left to renormalize")
    with np.errstate(over="ignore"):
        total = out.sum()
    if not np.isfinite(total):
        out = out / out.max()
        total = out.sum()
    with np.errstate(over="ignore", invalid="ignore"):
        return out * (1.0 / total)  # <- 1/total overflows for a subnormal total


def top_p_renormalize(probs, p):
    kept = _base.top_p_renormalize(probs, p) > 0  # the tokens top-p keeps, arguments checked
    return to_one(np.where(kept, np.asarray(probs, dtype=np.float64), 0.0))
