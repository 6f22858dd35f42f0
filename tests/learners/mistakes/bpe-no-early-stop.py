"""Keeps merging when no pair occurs twice.

Byte BPE written as a plain loop (another algorithm than the scaffold's reference, the same
merges) with that one change; tests/test_diagnose.py splices it into the scaffold, whose
helpers it uses."""

# ruff: noqa: F821

import itertools

import numpy as np


def bpe_train(data, vocab_size):
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int | np.integer):
        raise ValueError(f"vocab_size must be an integer, got {vocab_size!r}")
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be >= 256, got {vocab_size}")
    ids = _byte_values(data)
    merges = []
    while len(merges) < vocab_size - 256:
        counts = {}
        for a, b in itertools.pairwise(ids):
            counts[(a, b)] = counts.get((a, b), 0) + 1
        if not counts:
            break
        pair = min(counts, key=lambda p: (-counts[p], p))
        new = 256 + len(merges)
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(new)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
        merges.append(pair)
    return merges
