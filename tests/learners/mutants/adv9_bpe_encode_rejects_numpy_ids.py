"""From an adversarial tester's ninth held-out set (a false pass, now caught): BUGGY: bpe_encode validates merge ids with isinstance(tok, int), so merges of NumPy ints (which the contract says the claims pass) are refused."""

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
        a, b = merge
        for tok in (a, b):  # ids must be ints naming a token already made
            if isinstance(tok, bool) or not isinstance(tok, int) or not 0 <= tok < 256 + rank:
                raise ValueError("a merge names a token not made yet")
        ids = _replace_pair(ids, (a, b), 256 + rank)
    return ids
