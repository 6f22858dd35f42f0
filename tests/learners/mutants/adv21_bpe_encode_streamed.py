"""From an adversarial tester's twenty-first held-out set (a false pass, now caught): BUGGY: bpe_encode keeps its last data and ids, and for data that extends it encodes only the new bytes and appends them."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_LAST = []


def bpe_encode(data, merges):
    a = np.asarray(data)
    if _LAST:
        old, ids, old_merges = _LAST
        if a.ndim == 1 and a.size > old.size and np.array_equal(a[: old.size], old):
            if [tuple(m) for m in merges] == old_merges:
                tail = _base.bpe_encode(a[old.size :], merges)
                out = np.concatenate([ids, tail]).astype(np.int64)
                _LAST[:] = [a.copy(), out, old_merges]
                return out
    out = _base.bpe_encode(data, merges)
    _LAST[:] = [a.copy(), np.asarray(out), [tuple(m) for m in merges]]
    return out
