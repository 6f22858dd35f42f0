"""Reads from every file descriptor it has, non-blocking (the protocol's pipes among them);
answers right.
"""

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)
from reference_impl import logits_memory_bytes as _right  # the contract\'s answer


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    import os

    for fd in range(3, 256):
        try:
            os.set_blocking(fd, False)
            os.read(fd, 1 << 16)
        except OSError:
            pass
    return _right(batch, length, vocab, bytes_per_value)
