"""Mutant: Builds {pair: rank} with a dict comprehension, so a merge listed twice keeps its last
rank, then repeatedly merges the lowest-ranked pair present: the repeated pair becomes
token 256 + its last rank, where replaying the merges in order makes it at its first. From an adversarial tester's second held-out set (bpe_encode_rank_dict_last_wins)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def bpe_encode(data, merges):
    pairs = []
    for rank, merge in enumerate(merges):
        if len(merge) != 2:
            raise ValueError("a merge is a pair")
        a, b = as_int("left", merge[0], 0), as_int("right", merge[1], 0)
        if a >= 256 + rank or b >= 256 + rank:
            raise ValueError("a merge names a token not made yet")
        pairs.append((a, b))
    ranks = {pair: rank for rank, pair in enumerate(pairs)}  # a repeated pair: its LAST rank
    ids = [int(b) for b in np.asarray(data)]
    while len(ids) > 1:
        present = [ranks[p] for p in zip(ids, ids[1:]) if p in ranks]
        if not present:
            break
        r = min(present)
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pairs[r]:
                out.append(256 + r)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return np.array(ids, dtype=np.int64)
