"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: bpe_encode checks only the left id of a merge against the ids made so far: (97, 300) is not refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


def bpe_encode(data, merges):
    ids = np.array(_as_bytes(data), dtype=np.int64)
    for rank, merge in enumerate(merges):
        if len(merge) != 2:
            raise ValueError("a merge is a pair")
        a, b = int(merge[0]), int(merge[1])
        if min(a, b) < 0 or a >= 256 + rank:  # ids exist: not negative, not made later
            raise ValueError("a merge names a token not made yet")
        ids = _replace_pair(ids, (a, b), 256 + rank)
    return ids
