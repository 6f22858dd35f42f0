"""Mutant: Casts the logits to float32 before the argmax: logits 1e-12 apart become a tie and the
lower index wins ([1, 1 + 1e-12] gives 0, not 1). From an adversarial tester's held-out set
(n_greedy_float32_cast)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def greedy_token(logits):
    z = np.asarray(logits, dtype=np.float32)  # nearly equal logits collapse in float32
    if z.ndim != 1 or z.size == 0 or np.isnan(z).any():
        raise ValueError("bad")
    return int(np.argmax(z))
