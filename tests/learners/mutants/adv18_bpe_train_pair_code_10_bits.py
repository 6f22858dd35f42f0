"""From an adversarial tester's eighteenth held-out set (a false pass, now caught): BUGGY: bpe_train counts pairs by the code (left << 10) | right, which two pairs share once ids pass 1,023."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def bpe_train(data, vocab_size):
    _base.bpe_train(data, vocab_size)  # every check first
    ids = [int(b) for b in np.asarray(data)]
    merges = []
    while 256 + len(merges) < vocab_size:
        counts = {}
        for a, b in zip(ids, ids[1:]):
            key = (a << 10) | b
            counts[key] = counts.get(key, 0) + 1
        if not counts:
            break
        best = min(counts, key=lambda c: (-counts[c], c))
        if counts[best] < 2:
            break
        a, b = best >> 10, best & 1023
        new, out, i = 256 + len(merges), [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == a and ids[i + 1] == b:
                out.append(new)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
        merges.append((a, b))
    return merges
