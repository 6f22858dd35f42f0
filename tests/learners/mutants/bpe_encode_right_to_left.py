"""Mutant: Replaces each merge's occurrences right to left: aaa becomes a(aa), not (aa)a."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def bpe_encode(data, merges):
    ids = [int(b) for b in np.asarray(data)]
    if any(b < 0 or b > 255 for b in ids):
        raise ValueError("bytes only")
    for rank, merge in enumerate(merges):
        a, b = int(merge[0]), int(merge[1])
        if not (0 <= a < 256 + rank and 0 <= b < 256 + rank):
            raise ValueError("a merge names a token not made yet")
        out, i = [], len(ids) - 1
        while i >= 0:
            if i >= 1 and ids[i - 1] == a and ids[i] == b:
                out.append(256 + rank)
                i -= 2
            else:
                out.append(ids[i])
                i -= 1
        ids = out[::-1]
    return np.array(ids, dtype=np.int64)
