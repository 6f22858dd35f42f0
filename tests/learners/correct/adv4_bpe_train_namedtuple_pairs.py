"""Correct, from an adversarial tester's fourth held-out set: CORRECT (contract: merges "[(left, right), ...]"): bpe_train returns its merges as a list
of namedtuples Pair(left, right): tuples (Pair(97, 98) == (97, 98)), with field names."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
from collections import namedtuple

Pair = namedtuple("Pair", "left right")


def bpe_train(data, vocab_size):
    return [Pair(a, b) for a, b in _base.bpe_train(data, vocab_size)]
