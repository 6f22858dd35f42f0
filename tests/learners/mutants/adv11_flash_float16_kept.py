"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: flash_attention keeps float16 q, k, v in float16."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def flash_attention(q, k, v, block):
    out = _base.flash_attention(q, k, v, block)
    if all(np.asarray(a).dtype == np.float16 for a in (q, k, v)):
        return out.astype(np.float16)  # <- only float32 upcast: float16 keeps its precision
    return out
