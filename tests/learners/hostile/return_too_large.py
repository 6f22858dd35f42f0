"""Returns an array of three million float64 (24 MB): over the result limit."""

import numpy as np
from reference_impl import *  # noqa: F403  (every function right; one is replaced below)


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    return np.ones(3_000_000)
