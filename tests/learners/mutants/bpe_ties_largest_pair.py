"""Mutant: Breaks ties between equally frequent pairs by the largest pair, not the smallest."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *
from _base import _as_bytes


def bpe_train(data, vocab_size):
    """The incremental trainer, with ties ordered by the largest pair."""
    import heapq

    ids = _as_bytes(data)
    size = as_int("vocab_size", vocab_size, 256)
    n = len(ids)
    nxt, prv = list(range(1, n + 1)), list(range(-1, n - 1))
    if n:
        nxt[-1] = -1
    at = {}
    for i in range(n - 1):
        at.setdefault((ids[i], ids[i + 1]), set()).add(i)

    def drop(pair, i):
        where = at.get(pair)
        if where is not None:
            where.discard(i)

    def add(pair, i):
        at.setdefault(pair, set()).add(i)
        heapq.heappush(heap, (-len(at[pair]), (-pair[0], -pair[1])))

    heap = [(-len(w), (-pair[0], -pair[1])) for pair, w in at.items()]
    heapq.heapify(heap)
    merges = []
    while 256 + len(merges) < size and heap:
        count, key = heapq.heappop(heap)
        pair = (-key[0], -key[1])
        live = len(at.get(pair, ()))
        if live != -count:  # stale entry: its count changed since it was pushed
            if live:
                heapq.heappush(heap, (-live, key))
            continue
        if live < 2:
            break
        new = 256 + len(merges)
        for i in sorted(at.pop(pair)):
            j = nxt[i]
            if ids[i] != pair[0] or j < 0 or ids[j] != pair[1]:
                continue  # overlapped by the occurrence just merged
            left, right = prv[i], nxt[j]
            if left >= 0:
                drop((ids[left], ids[i]), left)
            if right >= 0:
                drop((ids[j], ids[right]), j)
            ids[i], ids[j] = new, -1
            nxt[i] = right
            if right >= 0:
                prv[right] = i
            if left >= 0:
                add((ids[left], new), left)
            if right >= 0:
                add((new, ids[right]), i)
        merges.append(pair)
    return merges
