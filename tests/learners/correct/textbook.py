"""Correct, the textbook way (from an adversarial tester's correct set): BPE training that
recounts every adjacent pair before each merge (O(merges × text), c19_bpe_naive), BPE
encoding that replays each merge over a Python list and returns that list of ints
(p_bpe_encode_list, with the merge check the contract asks for), and the averaging model
as a running sum, one row at a time (c03_averaging_matrix)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import operator

import numpy as np
from _base import *


def bpe_train(data, vocab_size):
    if isinstance(vocab_size, bool):
        raise ValueError("vocab_size")
    vs = operator.index(vocab_size)
    if vs < 256:
        raise ValueError("vocab_size must be >= 256")
    ids = [int(b) for b in np.asarray(data, dtype=np.uint8)]
    merges = []
    while len(merges) < vs - 256:
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        best = min(counts, key=lambda p: (-counts[p], p))
        if counts[best] < 2:
            break
        new = 256 + len(merges)
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == best[0] and ids[i + 1] == best[1]:
                out.append(new)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
        merges.append(best)
    return merges


def bpe_encode(data, merges):
    ids = [int(b) for b in np.asarray(data)]
    for r, m in enumerate(merges):
        a, b = int(m[0]), int(m[1])
        if not (0 <= a < 256 + r and 0 <= b < 256 + r):
            raise ValueError("merge names a token that does not exist yet")
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == a and ids[i + 1] == b:
                out.append(256 + r)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return ids  # a plain list of ints: an array of ids written out


def averaging_model(x):
    x = np.array(x, dtype=np.float64, copy=True)
    if x.ndim != 2 or x.shape[0] < 1 or x.shape[1] < 1:
        raise ValueError("x must be (T, d)")
    out = np.empty_like(x)
    run = np.zeros(x.shape[1])
    for t in range(x.shape[0]):  # a running sum, one row at a time
        run = run + x[t]
        out[t] = run / (t + 1)
    return out
