"""From an adversarial tester's eighteenth held-out set (a false pass, now caught): BUGGY: bpe_encode collects the ids into one module-level list, cleared at each call, and returns that list."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_IDS = []


def bpe_encode(data, merges):
    ids = np.asarray(_base.bpe_encode(data, merges)).tolist()
    _IDS.clear()
    _IDS.extend(ids)
    return _IDS
