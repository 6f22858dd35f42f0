"""Writes garbage into every file descriptor it has (the protocol's pipes among them)."""

import contextlib

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    import os

    for fd in range(3, 256):
        with contextlib.suppress(OSError):
            os.write(fd, b"\xff" * 64)
    return batch * length * vocab * bytes_per_value
