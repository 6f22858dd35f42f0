"""From an adversarial tester's twenty-second held-out set (a false pass, now caught): BUGGY: bpe_encode memoizes by the data's bytes and the number of merges, not the merges themselves: the same data with as many other merges gets the last call's ids."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_SEEN = {}


def bpe_encode(data, merges):
    key = (np.asarray(data).tobytes(), len(merges))
    if key not in _SEEN:
        _SEEN[key] = _base.bpe_encode(data, merges)
    return np.array(_SEEN[key])
