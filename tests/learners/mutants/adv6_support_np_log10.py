"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: sequence_support_log10 takes np.log10 of the vocabulary, which raises TypeError for an exact integer past int64 (V = 2**64 + 1)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def sequence_support_log10(vocab, length):
    _base.sequence_support_log10(vocab, length)  # its checks
    return float(length * np.log10(vocab))
