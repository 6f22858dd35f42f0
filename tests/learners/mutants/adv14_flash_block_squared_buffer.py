"""From an adversarial tester's fourteenth held-out set (a false pass, now caught): BUGGY: flash_attention allocates its score tile as (block, block), not (min(block, T), min(block, T)): MemoryError for block = 10**6 at T = 3."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def flash_attention(q, k, v, block):
    scratch = np.empty((int(block), int(block)))  # reused score tile
    del scratch
    return _base.flash_attention(q, k, v, block)
