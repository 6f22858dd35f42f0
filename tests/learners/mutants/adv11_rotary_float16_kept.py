"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: rotary_embedding keeps float16 x in float16."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def rotary_embedding(x, offset=0):
    out = _base.rotary_embedding(x, offset)
    if np.asarray(x).dtype == np.float16:
        return out.astype(np.float16)  # <- only float32 upcast: float16 keeps its precision
    return out
