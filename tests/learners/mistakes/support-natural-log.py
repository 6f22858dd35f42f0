"""Takes the log with numpy's np.log, which is the natural log."""

import numpy as np


def sequence_support_log10(vocab, length):
    return float(length * np.log(vocab))
