"""Mutant: softmax_temperature floors T at 1e-12 "against overflow": logits 1e-12 apart at
T = 1e-14 give [0.269, 0.731] where the reference gives [3.7e-44, 1]. Every case below
T = 1e-12 had logit gaps far above 1e-10, so the result was the same one-hot either way (a
buggy-learner round, 2026-12-07)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *


def softmax_temperature(logits, temperature):
    t = temperature
    if isinstance(t, (int, float, np.floating)) and not isinstance(t, bool) and 0 < t < 1e-12:
        t = 1e-12
    return _base.softmax_temperature(logits, t)
