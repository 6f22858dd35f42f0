"""From an adversarial tester's fourth held-out set (a false pass, now caught): BUGGY: flash_attention answers T = 1 with v itself (the one key is the query's own) before
checking block: flash_attention(q (1, d), k, v, block=0) gives v instead of ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def flash_attention(q, k, v, block):
    q, k, v = qkv(q, k, v)
    if q.shape[0] == 1:
        return v.copy()  # <- shortcut before checking block
    return _base.flash_attention(q, k, v, block)
