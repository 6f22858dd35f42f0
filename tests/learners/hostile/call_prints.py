"""Prints 100 MB (stdout, stderr and raw fds 1 and 2) in each of its first three calls (the
chapter's claim makes three), and answers right every time."""

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)
from reference_impl import logits_memory_bytes as _right  # the contract\'s answer

_calls = []


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    import os
    import sys

    _calls.append(1)
    if len(_calls) > 3:
        return _right(batch, length, vocab, bytes_per_value)
    print("printed by logits_memory_bytes")
    for _ in range(500):
        sys.stdout.write("x" * 100_000)
        sys.stderr.write("y" * 100_000)
    os.write(1, b'{"not": "the runner\'s json"')
    os.write(2, b"raw fd 2")
    return _right(batch, length, vocab, bytes_per_value)
