"""Mutant: Breaks ties between pairs by left*256 + right, 'the smallest pair as a base-256
number': the same as comparing (left, right) while every id is a byte, not once a tie
involves a merged id past 255 ((1, 257) and (2, 1) both give 513). From an adversarial
tester's held-out set (n_bpe_tie_key_base256)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def bpe_train(data, vocab_size):
    vocab_size = as_int("vocab_size", vocab_size, 256)
    ids = [int(b) for b in np.asarray(data)]
    merges = []
    while len(merges) < vocab_size - 256:
        c = {}
        for a, b in zip(ids, ids[1:]):
            c[(a, b)] = c.get((a, b), 0) + 1
        if not c:
            break
        pair = min(c, key=lambda p: (-c[p], p[0] * 256 + p[1]))  # "smallest" as a base-256 number
        if c[pair] < 2:
            break
        new = 256 + len(merges)
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
                out.append(new)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
        merges.append(pair)
    return merges
