"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: embedding_lookup keeps a float16 table's dtype: float16 rows, not float64."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def embedding_lookup(tokens, table):
    rows = _base.embedding_lookup(tokens, table)
    if np.asarray(table).dtype == np.float16:
        return rows.astype(np.float16)  # <- only float32 upcast: float16 rows stay float16
    return rows
