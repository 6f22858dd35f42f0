"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: bpe_encode reads merges through an int32 array: an id of 2**32 + 97 becomes 97."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# bpe_encode reads merges with np.asarray(merges, dtype=np.int32) before validating: an id 2**32 + 97 wraps to 97 and is accepted
def bpe_encode(data, merges):
    m = (
        np.asarray(merges, dtype=np.int64).astype(np.int32).reshape(-1, 2)
        if len(merges)
        else np.zeros((0, 2), dtype=np.int32)
    )
    ids = np.array(_as_bytes(data), dtype=np.int64)
    for rank in range(m.shape[0]):
        a, b = int(m[rank, 0]), int(m[rank, 1])
        if not (0 <= a < 256 + rank and 0 <= b < 256 + rank):
            raise ValueError("a merge names a token not made yet")
    for rank in range(m.shape[0]):
        ids = _replace_pair(ids, (int(m[rank, 0]), int(m[rank, 1])), 256 + rank)
    return ids
