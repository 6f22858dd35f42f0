"""From an adversarial tester's eighteenth held-out set (a false pass, now caught): BUGGY: bpe_train refills one module-level list with each call's merges and returns it, so a caller's earlier merges change with the next call."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base

_MERGES = []


def bpe_train(data, vocab_size):
    _MERGES[:] = _base.bpe_train(data, vocab_size)
    return _MERGES
