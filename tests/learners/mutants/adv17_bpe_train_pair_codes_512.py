"""From an adversarial tester's seventeenth held-out set (a false pass, now caught): BUGGY: bpe_train codes each pair as left * 512 + right ('my vocabulary is at most 512'): from id 512 on, pairs collide and a pair that is not the most frequent is merged."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def bpe_train(data, vocab_size):
    _base.bpe_train(data, vocab_size)  # its checks
    ids = np.array([int(v) for v in np.asarray(data)], dtype=np.int64)
    merges = []
    base = 512  # (l, r) coded as l * 512 + r
    while len(merges) < vocab_size - 256 and ids.size >= 2:
        codes = ids[:-1] * base + ids[1:]
        uniq, counts = np.unique(codes, return_counts=True)
        best = int(np.argmax(counts))  # the first maximum: the smallest code
        if counts[best] < 2:
            break
        left, right = divmod(int(uniq[best]), base)
        taken, last = [], -2
        for p in np.flatnonzero(codes == uniq[best]).tolist():  # left to right, no overlap
            if p != last + 1:
                taken.append(p)
                last = p
        at = np.array(taken, dtype=np.int64)
        ids[at] = 256 + len(merges)
        ids = np.delete(ids, at + 1)
        merges.append((left, right))
    return merges
