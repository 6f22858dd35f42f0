"""Kills its parent (the fork server) with SIGKILL, then answers right."""

import contextlib

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)
from reference_impl import logits_memory_bytes as _right  # the contract\'s answer


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    import os
    import signal

    with contextlib.suppress(PermissionError):
        os.kill(os.getppid(), signal.SIGKILL)
    return _right(batch, length, vocab, bytes_per_value)
