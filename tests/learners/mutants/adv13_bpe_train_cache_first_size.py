"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: bpe_train caches the first run's merges per text and slices them for later sizes."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


_runs = {}


def bpe_train(data, vocab_size):
    key = np.asarray(data).tobytes()
    if key not in _runs:
        _runs[key] = _base.bpe_train(data, vocab_size)  # <- the first size's merges only
    return list(_runs[key])[: max(0, int(vocab_size) - 256)]
