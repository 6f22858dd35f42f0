"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: flash_attention clamps block with np.clip(np.int64(block), 1, T): block = 2**63 overflows."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# flash_attention clamps block with np.clip(block, 1, T) on an int64: block = 2**63 (valid, > T) overflows
_flash_base3 = flash_attention


def flash_attention(q, k, v, block):
    b = as_int("block", block, 1)
    t = np.asarray(q).shape[0] if np.asarray(q).ndim == 2 else 1
    b = int(np.clip(np.int64(b), 1, max(t, 1)))
    return _flash_base3(q, k, v, b)
