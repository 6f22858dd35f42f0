"""Returns a NumPy int64 scalar (plain data) wherever the count fits one: passes."""

import numpy as np
from reference_impl import *  # noqa: F403  (every function right; one is replaced below)
from reference_impl import logits_memory_bytes as _right  # the contract\'s answer


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    count = _right(batch, length, vocab, bytes_per_value)
    return np.int64(count) if count < 2**63 else count  # past 2^63 only a Python int is exact
