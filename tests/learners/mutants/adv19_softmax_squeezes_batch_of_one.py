"""From an adversarial tester's nineteenth held-out set (a false pass, now caught): BUGGY: softmax_temperature returns a (1, V) batch's result as (V,)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def softmax_temperature(logits, temperature):
    out = _base.softmax_temperature(logits, temperature)
    return out[0] if out.ndim == 2 and out.shape[0] == 1 else out
