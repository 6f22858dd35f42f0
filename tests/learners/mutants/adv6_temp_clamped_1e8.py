"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: softmax_temperature clamps T to at least 1e-8 'to avoid blow-up': logits [0, 1e-9] at T = 1e-10 give [0.475, 0.525] instead of [4.54e-5, 0.99995]."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def softmax_temperature(logits, temperature):
    if isinstance(temperature, (int, float)) and 0 < temperature < 1e-8:
        temperature = 1e-8  # <- "no blow-up"
    return _base.softmax_temperature(logits, temperature)
