"""Prints 100 MB (stdout, stderr and raw fds 1 and 2) and answers right."""

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)
from reference_impl import logits_memory_bytes as _right  # the contract\'s answer


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    import os
    import sys

    print("printed by logits_memory_bytes")
    for _ in range(500):
        sys.stdout.write("x" * 100_000)
        sys.stderr.write("y" * 100_000)
    os.write(1, b'{"not": "the runner\'s json"')
    os.write(2, b"raw fd 2")
    return _right(batch, length, vocab, bytes_per_value)
