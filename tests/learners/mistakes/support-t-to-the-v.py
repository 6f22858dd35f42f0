"""Writes the power the wrong way round: T^V."""

import math


def sequence_support_log10(vocab, length):
    return math.log10(length) * vocab
