"""From an adversarial tester's fourteenth held-out set (a false pass, now caught): BUGGY: bpe_train makes a table of every token's bytes, vocab_size entries long, before training: MemoryError for vocab_size = 10**12."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def bpe_train(data, vocab_size):
    if (
        isinstance(vocab_size, (int, np.integer))
        and not isinstance(vocab_size, bool)
        and vocab_size >= 256
    ):
        token_bytes = [b""] * int(vocab_size)
        del token_bytes
    return _base.bpe_train(data, vocab_size)
