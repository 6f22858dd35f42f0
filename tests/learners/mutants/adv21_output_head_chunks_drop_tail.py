"""From an adversarial tester's twenty-first held-out set (a false pass, now caught): BUGGY: output_head computes the logits in chunks of 4,096 vocabulary rows and leaves the last partial chunk 0."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def output_head(h, table):
    out = _base.output_head(h, table)
    v = np.asarray(table).shape[0] if np.ndim(table) == 2 else 0
    if v > 4096:
        out = np.array(out, dtype=np.float64)
        out[:, (v // 4096) * 4096 :] = 0.0  # range(0, V - 4096 + 1, 4096) misses the tail
    return out
