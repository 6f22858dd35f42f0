"""Kills its parent (the fork server) with SIGKILL, then answers right."""

import contextlib

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    import os
    import signal

    with contextlib.suppress(PermissionError):
        os.kill(os.getppid(), signal.SIGKILL)
    return batch * length * vocab * bytes_per_value
