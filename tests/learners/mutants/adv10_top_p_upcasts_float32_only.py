"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: top_p_renormalize upcasts only float32: float16 probs are rescaled in float16."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# top_p_renormalize widens only float32 probs: float16 probs come back float16, rescaled in float16
_top_p_base = top_p_renormalize


def top_p_renormalize(probs, p):
    a = np.asarray(probs)
    if a.dtype != np.float16:
        return _top_p_base(probs, p)
    out = _top_p_base(a.astype(np.float64), p)
    kept = np.where(out > 0, a, np.float16(0))
    return kept / kept.sum()
