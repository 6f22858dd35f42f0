"""Mutant: 4*d*d computed as np.int64 (wraps past 2**63)"""

# ruff: noqa  (a learner's file, kept as a learner writes it)
import math
import operator

import numpy as np
from _base import *


def attention_parameter_count(d_model, n_head):
    d, h = as_int("d_model", d_model, 1), as_int("n_head", n_head, 1)
    if d % h:
        raise ValueError("n_head must divide d_model")
    d = np.int64(d)
    return 4 * d * d
