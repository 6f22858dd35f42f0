"""Forks a child that sleeps forever (killed with the worker's process group); answers right."""

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)
from reference_impl import logits_memory_bytes as _right  # the contract\'s answer


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    import os
    import time

    pid = os.fork()
    if pid == 0:
        time.sleep(1e9)
        os._exit(0)
    print(f"child {pid}")
    return _right(batch, length, vocab, bytes_per_value)
