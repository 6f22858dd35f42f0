"""From an adversarial tester's twentieth held-out set (a false pass, now caught): BUGGY: bpe_encode finds each merge's pair by the code (left << 10) | right: ids from 1,024 on share a code with another pair."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def bpe_encode(data, merges):
    out = _base.bpe_encode(data, merges)  # every check first
    if len(out) > 5000:
        return out
    ids = [int(b) for b in np.asarray(data)]
    for rank, merge in enumerate(merges):
        code = (int(merge[0]) << 10) | int(merge[1])
        replaced, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ((ids[i] << 10) | ids[i + 1]) == code:
                replaced.append(256 + rank)
                i += 2
            else:
                replaced.append(ids[i])
                i += 1
        ids = replaced
    return np.asarray(ids, dtype=np.int64)
