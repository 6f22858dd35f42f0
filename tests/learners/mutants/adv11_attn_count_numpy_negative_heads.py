"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: attention_parameter_count checks n_head >= 1 for Python ints only: np.int64(-4) is accepted."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def attention_parameter_count(d_model, n_head):
    d = as_int("d_model", d_model, 1)
    if isinstance(n_head, bool) or not isinstance(n_head, (int, np.integer)):
        raise ValueError("n_head must be an integer")
    if isinstance(n_head, int) and n_head < 1:
        raise ValueError("n_head must be >= 1")
    if n_head == 0 or d % n_head:
        raise ValueError("n_head must divide d_model")
    return 4 * d * d
