"""From an adversarial tester's twentieth held-out set (a false pass, now caught): BUGGY: flash_attention steps through the tiles in block's own NumPy type: np.int8(100) wraps at 200 + 100 and a valid call raises."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def flash_attention(q, k, v, block):
    if isinstance(block, np.integer) and block > 0:
        t = np.asarray(q).shape[0]
        with np.errstate(over="ignore"):
            i0 = block.dtype.type(0)
            while i0 < t:
                following = i0 + block
                if following <= i0:
                    raise ValueError("block does not fit the sequence")
                i0 = following
    return _base.flash_attention(q, k, v, block)
