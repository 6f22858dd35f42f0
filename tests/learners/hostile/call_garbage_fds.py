"""Writes garbage into every file descriptor it has (the protocol's pipes among them)."""

import contextlib

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)
from reference_impl import logits_memory_bytes as _right  # the contract\'s answer


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    import os

    for fd in range(3, 256):
        with contextlib.suppress(OSError):
            os.write(fd, b"\xff" * 64)
    return _right(batch, length, vocab, bytes_per_value)
