"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: bpe_train checks vocab_size >= 256 for Python ints only: np.int64(200) is accepted."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


_base_bpe_train = bpe_train


def bpe_train(data, vocab_size):
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, (int, np.integer)):
        raise ValueError("vocab_size must be an integer")
    if isinstance(vocab_size, int) and vocab_size < 256:
        raise ValueError("vocab_size must be >= 256")
    return _base_bpe_train(data, int(max(vocab_size, 256)))
