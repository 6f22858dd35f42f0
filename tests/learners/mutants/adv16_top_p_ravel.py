"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: top_p_renormalize ravels its probs: (1, V) and 0-d probs are accepted."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_p_renormalize(probs, p):
    return _base.top_p_renormalize(np.asarray(probs).ravel(), p)
