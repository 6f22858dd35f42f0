"""Returns an array of dtype datetime64."""

import numpy as np
from reference_impl import *  # noqa: F403  (every function right; one is replaced below)


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    return np.array(["2020-01-01"], dtype="datetime64[D]")
