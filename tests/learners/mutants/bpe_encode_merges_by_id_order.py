"""Mutant: Applies the merges from the newest to the oldest."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


_correct_encode = bpe_encode


def bpe_encode(data, merges):
    merges = [tuple(int(v) for v in m) for m in merges]
    for rank, (a, b) in enumerate(merges):
        if not (0 <= a < 256 + rank and 0 <= b < 256 + rank):
            raise ValueError("a merge names a token not made yet")
    ids = [int(b) for b in np.asarray(data)]
    if any(b < 0 or b > 255 for b in ids):
        raise ValueError("bytes only")
    for rank in reversed(range(len(merges))):
        a, b = merges[rank]
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == a and ids[i + 1] == b:
                out.append(256 + rank)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return np.array(ids, dtype=np.int64)
