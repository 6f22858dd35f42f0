"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: flash_attention checks that k and v share T but not that q has it: q (2, 2) with k, v of T = 3 returns (2, 1) instead of ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def flash_attention(q, k, v, block):
    q, k = np.asarray(q), np.asarray(k)
    if q.ndim == k.ndim == 2 and q.shape[0] < k.shape[0]:  # <- q's T never compared with k's
        return _base.flash_attention(q, k[: len(q)], np.asarray(v)[: len(q)], block)
    return _base.flash_attention(q, k, v, block)
