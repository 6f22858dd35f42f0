"""Replaces each merge's occurrences right to left.

Byte BPE written as a plain loop (another algorithm than the scaffold's reference, the same
merges) with that one change; tests/test_diagnose.py splices it into the scaffold, whose
helpers it uses."""

# ruff: noqa: F821

import numpy as np


def _pairs(merges, check=True):
    pairs = []
    for rank, merge in enumerate(merges):
        if len(merge) != 2:
            raise ValueError(f"merge {rank} must be a (left, right) pair, got {merge!r}")
        a = _integer(f"merges[{rank}][0]", merge[0], 0 if check else -(2**63))
        b = _integer(f"merges[{rank}][1]", merge[1], 0 if check else -(2**63))
        if check and not (a < 256 + rank and b < 256 + rank):
            raise ValueError(f"merge {rank} names a token that does not exist yet: {merge!r}")
        pairs.append((a, b))
    return pairs


def _merged(ids, pair, new):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def bpe_encode(data, merges):
    ids = _byte_values(data)
    for rank, (a, b) in enumerate(_pairs(merges)):
        ids = _merged(ids[::-1], (b, a), 256 + rank)[::-1]  # scanned from the end
    return np.asarray(ids, dtype=np.int64)
