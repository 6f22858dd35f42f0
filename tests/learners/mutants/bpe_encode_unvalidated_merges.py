"""Mutant: Replays any merge it is given: a merge naming a token that does not exist yet (merge 0
of (300, 1)) is accepted instead of raising ValueError. From an adversarial tester's
held-out set (v_bpe_encode_unvalidated_merges)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def bpe_encode(data, merges):
    ids = [int(b) for b in np.asarray(data)]
    for r, m in enumerate(merges):  # a merge naming a token that does not exist yet is accepted
        a, b = int(m[0]), int(m[1])
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == a and ids[i + 1] == b:
                out.append(256 + r)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return np.asarray(ids, dtype=np.int64)
