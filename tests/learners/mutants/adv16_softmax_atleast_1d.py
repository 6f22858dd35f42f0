"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: softmax_temperature passes its logits through np.atleast_1d: 0-d logits give [1.] instead of a ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def softmax_temperature(logits, temperature):
    return _base.softmax_temperature(np.atleast_1d(np.asarray(logits)), temperature)
