"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: top_p_renormalize works in np.result_type(probs, float64), so long double stays long double."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_p_renormalize(probs, p):
    p_arr = np.asarray(probs)
    out = _base.top_p_renormalize(probs, p)
    return out.astype(np.result_type(p_arr.dtype, np.float64))  # <- long double kept
