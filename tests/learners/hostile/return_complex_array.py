"""Returns an array of dtype complex128."""

import numpy as np
from reference_impl import *  # noqa: F403  (every function right; one is replaced below)


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    return np.array(batch * length * vocab * bytes_per_value, dtype=np.complex128)
