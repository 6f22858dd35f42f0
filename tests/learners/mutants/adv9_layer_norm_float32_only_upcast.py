"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: layer_norm upcasts only float32: float16 x is normalized in float16."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def layer_norm(x, gain, bias, eps=1e-5):
    out = _base.layer_norm(x, gain, bias, eps)
    if np.asarray(x).dtype == np.float16:
        return out.astype(np.float16)  # <- only float32 upcast: float16 keeps its precision
    return out
