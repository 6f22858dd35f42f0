"""Reads "V tokens at T positions" as V·T sequences."""

import math


def sequence_support_log10(vocab, length):
    return math.log10(vocab * length)
