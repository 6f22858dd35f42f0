"""Forms V^T as a float first, then takes its log10."""

import math


def sequence_support_log10(vocab, length):
    count = float(vocab) ** length
    return math.log10(count)
